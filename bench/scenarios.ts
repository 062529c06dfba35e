/**
 * What each scenario sends to each target. The same logical request goes everywhere; only
 * where it goes and how it authenticates differ: the mock directly with the upstream key,
 * gengate with its own key and public model ids, Portkey with the upstream key plus its
 * `x-portkey-provider` / `x-portkey-custom-host` headers pointing at the same mock.
 */
import type { TargetName } from './bench-types.js';
import { MOCK_MODELS } from './mock-responses.js';

export interface RequestSpec {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The status a correct answer has (401 for the rejected-key scenario). */
  expectStatus: number;
}

export interface Endpoints {
  mockPort: number;
  gengateKey: string;
  upstreamKey: string;
}

export interface Scenario {
  id: string;
  title: string;
  stream: boolean;
  /** The bare proxy only relays; it is measured where relaying is the whole job. */
  bareProxy: boolean;
  /** Targets that do not serve this request at all (skipped, with the reason in the report). */
  notServedBy?: Partial<Record<TargetName, string>>;
  /**
   * Measured on a gengate of its own started with these variables added (traces on, exported to
   * the mock's trace sink; metrics on), instead of the run's shared one.
   */
  gengateEnv?(mockPort: number): Record<string, string>;
  /** Limit rules (`POST /admin/v1/limits` bodies) set on the gengate targets while this scenario is measured. */
  limits?: ReadonlyArray<Record<string, unknown>>;
  request(target: TargetName, endpoints: Endpoints): RequestSpec;
}

const MESSAGES = [
  { role: 'system', content: 'You are a concise assistant.' },
  { role: 'user', content: 'Write one short sentence about load testing.' },
];
const ANTHROPIC_BODY = { system: 'You are a concise assistant.', messages: [{ role: 'user', content: 'Write one short sentence about load testing.' }] };
const EMBEDDING_INPUT = 'The quick brown fox jumps over the lazy dog while the gateway measures its own overhead.';

function portkeyHeaders(provider: 'openai' | 'anthropic', endpoints: Endpoints): Record<string, string> {
  return { 'x-portkey-provider': provider, 'x-portkey-custom-host': `http://127.0.0.1:${endpoints.mockPort}/v1` };
}

function openAIHeaders(target: TargetName, endpoints: Endpoints, key?: string): Record<string, string> {
  // The bare proxy forwards the client's key, so its clients hold the upstream key.
  const bearer = key ?? (target === 'gengate' ? endpoints.gengateKey : endpoints.upstreamKey);
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
  return target === 'portkey' ? { ...headers, ...portkeyHeaders('openai', endpoints) } : headers;
}

function anthropicHeaders(target: TargetName, endpoints: Endpoints): Record<string, string> {
  const key = target === 'gengate' ? endpoints.gengateKey : endpoints.upstreamKey;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  return target === 'portkey' ? { ...headers, ...portkeyHeaders('anthropic', endpoints) } : headers;
}

export const openAIModel = (target: TargetName): string => (target === 'gengate' ? 'textmodel-b-4o-mini' : MOCK_MODELS.openai);
const anthropicModel = (target: TargetName): string => (target === 'gengate' ? 'textmodel-a-haiku-4-5-20251001' : MOCK_MODELS.anthropic);

function openAIChat(target: TargetName, endpoints: Endpoints, stream: boolean, key?: string): RequestSpec {
  const body = { model: openAIModel(target), messages: MESSAGES, max_tokens: 256, ...(stream ? { stream: true } : {}) };
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: openAIHeaders(target, endpoints, key),
    body: JSON.stringify(body),
    expectStatus: key ? 401 : 200,
  };
}

function anthropicMessages(target: TargetName, endpoints: Endpoints, stream: boolean): RequestSpec {
  const body = { model: anthropicModel(target), max_tokens: 256, ...ANTHROPIC_BODY, ...(stream ? { stream: true } : {}) };
  return { method: 'POST', path: '/v1/messages', headers: anthropicHeaders(target, endpoints), body: JSON.stringify(body), expectStatus: 200 };
}

const ONLY_GENGATE: Scenario['notServedBy'] = {
  direct: 'measured on gengate only: a setting of its own',
  portkey: 'measured on gengate only: a setting of its own',
  'gengate-base': 'measured on gengate only: a setting of its own',
};

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'chat',
    title: 'chat, OpenAI → OpenAI (pass-through)',
    stream: false,
    bareProxy: true,
    request: (target, endpoints) => openAIChat(target, endpoints, false),
  },
  {
    id: 'chat-limited',
    title: 'chat, OpenAI → OpenAI, under a model-wide requests and tokens per minute limit (counters in memory)',
    stream: false,
    bareProxy: false,
    notServedBy: { portkey: 'measured on gengate only: the cost of admitting a call under limits' },
    // Generous enough never to refuse: the cell measures what counting costs, against the plain chat cell.
    limits: [
      { scope: 'model', subject: '', model: 'textmodel-b-4o-mini', kind: 'requests_per_minute', limit: 1_000_000_000 },
      { scope: 'model', subject: '', model: 'textmodel-b-4o-mini', kind: 'tokens_per_minute', limit: 1_000_000_000 },
    ],
    request: (target, endpoints) => openAIChat(target, endpoints, false),
  },
  {
    id: 'chat-traced',
    title: 'chat, OpenAI → OpenAI, with OpenTelemetry traces on (every call sampled, OTLP/HTTP to a local sink)',
    stream: false,
    bareProxy: false,
    // With --baseline-root set to this checkout, gengate-base is the same gateway untraced, measured slice for slice.
    notServedBy: { portkey: 'measured on gengate only: the cost of traces, against the plain chat cell (or gengate-base)' },
    gengateEnv: (mockPort) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${mockPort}`, OTEL_SERVICE_NAME: 'gengate-bench' }),
    request: (target, endpoints) => openAIChat(target, endpoints, false),
  },
  {
    id: 'chat-metrics',
    title: 'chat, OpenAI → OpenAI, with metrics on (/metrics behind a token): against the plain chat cell, what counting costs',
    stream: false,
    bareProxy: false,
    notServedBy: ONLY_GENGATE,
    gengateEnv: () => ({ GENGATE_METRICS: 'true', GENGATE_METRICS_TOKEN: 'bench-metrics-token-0123456789' }),
    request: (target, endpoints) => openAIChat(target, endpoints, false),
  },
  {
    id: 'chat-no-timing',
    title: 'chat, OpenAI → OpenAI, without the timing headers (metrics off): against the plain chat cell, what the headers cost',
    stream: false,
    bareProxy: false,
    notServedBy: ONLY_GENGATE,
    gengateEnv: () => ({ GENGATE_TIMING_HEADERS: 'false' }),
    request: (target, endpoints) => openAIChat(target, endpoints, false),
  },
  {
    id: 'chat-stream',
    title: 'chat stream, OpenAI → OpenAI (pass-through)',
    stream: true,
    bareProxy: true,
    request: (target, endpoints) => openAIChat(target, endpoints, true),
  },
  {
    id: 'cross-stream',
    title: 'chat stream, OpenAI client → Anthropic upstream',
    stream: true,
    bareProxy: false,
    request: (target, endpoints) => {
      // Direct has no translation to do: it measures the Anthropic stream the gateways consume.
      if (target === 'direct') return anthropicMessages(target, endpoints, true);
      const body = { model: anthropicModel(target), messages: MESSAGES, max_tokens: 256, stream: true };
      const headers =
        target === 'portkey' ? { ...openAIHeaders(target, endpoints), ...portkeyHeaders('anthropic', endpoints) } : openAIHeaders(target, endpoints);
      return { method: 'POST', path: '/v1/chat/completions', headers, body: JSON.stringify(body), expectStatus: 200 };
    },
  },
  {
    id: 'anthropic-stream',
    title: 'messages stream, Anthropic → Anthropic (pass-through)',
    stream: true,
    bareProxy: false,
    request: (target, endpoints) => anthropicMessages(target, endpoints, true),
  },
  {
    id: 'responses-stream',
    title: 'Responses API stream, OpenAI client → Anthropic upstream',
    stream: true,
    bareProxy: false,
    notServedBy: { portkey: 'measured on gengate only: the Responses API translated to an Anthropic upstream' },
    request: (target, endpoints) => {
      // Direct has no translation to do: it measures the Anthropic stream the gateway consumes.
      if (target === 'direct') return anthropicMessages(target, endpoints, true);
      const body = {
        model: anthropicModel(target),
        instructions: ANTHROPIC_BODY.system,
        input: ANTHROPIC_BODY.messages,
        max_output_tokens: 256,
        stream: true,
        store: false,
      };
      return { method: 'POST', path: '/v1/responses', headers: openAIHeaders(target, endpoints), body: JSON.stringify(body), expectStatus: 200 };
    },
  },
  {
    id: 'embeddings',
    title: 'embeddings, OpenAI → OpenAI',
    stream: false,
    bareProxy: false,
    request: (target, endpoints) => ({
      method: 'POST',
      path: '/v1/embeddings',
      headers: openAIHeaders(target, endpoints),
      body: JSON.stringify({ model: MOCK_MODELS.embedding, input: EMBEDDING_INPUT }),
      expectStatus: 200,
    }),
  },
  {
    id: 'bad-key',
    title: 'rejected request (bad key → 401)',
    stream: false,
    bareProxy: false,
    request: (target, endpoints) => openAIChat(target, endpoints, false, 'sk-not-a-valid-key'),
  },
];

/** The same request asking for the usage chunk, as metering clients do; gateways then need not inject it. */
export function withIncludeUsage(spec: RequestSpec): RequestSpec {
  const body = JSON.parse(spec.body) as Record<string, unknown>;
  return { ...spec, body: JSON.stringify({ ...body, stream_options: { include_usage: true } }) };
}

export function scenarioById(id: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`unknown scenario ${id}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return scenario;
}
