/**
 * A wildcard channel, as every environment preset has one: model ids under `fuzzup-gemini-` are
 * admitted whatever follows the prefix and go to a fake Gemini upstream on 127.0.0.1, whose
 * request paths are checked. A client's model id must reach the upstream as one path segment:
 * the model method the client called, no dot segments or other API methods, no query
 * parameters of the client's making, no control or path characters.
 */
import { FAKE_GEMINI_KEY, type FakeGeminiRequest, startFakeGeminiUpstream } from '../test/fakes/fake-gemini-upstream.js';

export const WILDCARD_MODEL_PREFIX = 'fuzzup-gemini-';

export interface WildcardUpstream {
  /** The `channels:` YAML for gengate.yaml. */
  yaml: string;
  requests: FakeGeminiRequest[];
  close(): Promise<void>;
}

export async function startWildcardUpstream(): Promise<WildcardUpstream> {
  const fake = await startFakeGeminiUpstream();
  const yaml = `channels:\n  - name: fuzz-wildcard\n    provider: gemini\n    baseUrl: ${fake.url}\n    apiKey: ${FAKE_GEMINI_KEY}\n    models: ["${WILDCARD_MODEL_PREFIX}*"]\n`;
  return { yaml, requests: fake.requests, close: () => fake.close() };
}

const METHOD_PATH = /^\/v1beta\/models\/([^/]+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f/\\?#]/;

/** What is wrong with one request the upstream received (its path is as the fake's URL parser normalised it), or nothing. */
export function upstreamRequestProblem(request: Pick<FakeGeminiRequest, 'path' | 'query'>): string | undefined {
  const match = METHOD_PATH.exec(request.path);
  if (!match) return `the upstream was called at ${request.path.slice(0, 120)}`;
  let model: string;
  try {
    model = decodeURIComponent(match[1]);
  } catch {
    return `the model segment ${match[1].slice(0, 80)} is not valid percent-encoded UTF-8`;
  }
  if (!model.startsWith(WILDCARD_MODEL_PREFIX))
    return `the model segment ${JSON.stringify(model).slice(0, 80)} is not the client's model (a dot segment moved it)`;
  if (FORBIDDEN.test(model) || model === '.' || model === '..')
    return `a control or path character reached the upstream URL: models/${JSON.stringify(model).slice(0, 80)}`;
  // The gateway's own query is `alt=sse` on a stream; the key goes in a header.
  const extra = Object.entries(request.query).filter(([name, value]) => !(name === 'alt' && value === 'sse'));
  if (extra.length > 0)
    return `query parameters the client put in the model reached the upstream: ${extra
      .map(([name]) => name)
      .join(', ')
      .slice(0, 80)}`;
  return undefined;
}
