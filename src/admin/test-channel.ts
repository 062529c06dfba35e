/**
 * "Test" of one channel: one small real request to its upstream, past the router (no failover,
 * no circuit breaker, no usage record), so the answer says whether this channel works. A chat
 * model gets a short "ping" with a tiny output budget; an embedding model embeds one word.
 * A failure shows the status and the time, and of the upstream's own words only an error message
 * it gave in a JSON error document (bounded): never the body of an answer that was not one, so a
 * base URL pointed at something that is not a model server does not make the Test a way to read it.
 */
import { performance } from 'node:perf_hooks';
import type { ChannelDefinition } from '../config/types.js';
import type { ErrorType } from '../core/error-type.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { Operation } from '../core/operation.js';
import { UnparsedUpstreamBody } from '../core/unparsed-upstream-body.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Provider } from '../providers/types.js';
import type { Catalog } from '../routing/catalog.js';
import { type RuntimeChannel, toRuntimeChannel } from '../routing/runtime-channel.js';
import { withoutCredentials } from './channel-view.js';

const CHANNEL_TEST_TIMEOUT_MS = 15_000;
const SAMPLE_CHARS = 200;
const TEST_MAX_TOKENS = 16;

export interface ChannelTestResult {
  ok: boolean;
  model: string;
  operation: 'chat' | 'embed';
  latencyMs: number;
  /** The upstream's HTTP status when it answered with an error (or the gateway's for its own failure). */
  status?: number;
  message: string;
  /** The start of the answer: text for chat, the vector's size for embeddings. */
  sample?: string;
  /** For probes, not shown by the Test: how the failure is classified, and whether the attempt loop would count it against the circuit. */
  errorType?: ErrorType;
  retryable?: boolean;
}

interface ChannelTestDeps {
  providers: ProviderRegistry;
  catalog: Catalog;
  requestId: string;
  timeoutMs?: number;
}

function testableOperation(provider: Provider, catalog: Catalog, model: string): 'chat' | 'embed' | undefined {
  const wanted: readonly Operation[] = catalog.get(model)?.operations ?? ['chat', 'embed'];
  if (wanted.includes('chat') && provider.chat && provider.operations.has('chat')) return 'chat';
  if (wanted.includes('embed') && provider.embed && provider.operations.has('embed')) return 'embed';
  return undefined;
}

/** The model asked for, else the first model the channel names, else the first catalog model it serves. */
function chooseModel(channel: RuntimeChannel, catalog: Catalog, asked: string | undefined): string {
  if (asked !== undefined) {
    if (!channel.matches(asked)) {
      throw new GatewayError('invalid_request', `The channel "${channel.name}" does not serve the model \`${asked}\`.`, {
        param: 'model',
        code: 'model_not_served',
      });
    }
    return asked;
  }
  const concrete = [
    ...channel.literalModels,
    ...catalog
      .all()
      .map((entry) => entry.id)
      .filter((id) => channel.matches(id)),
  ];
  const model = concrete.find((id) => testableOperation(channel.provider, catalog, id) !== undefined);
  if (!model) {
    throw new GatewayError('invalid_request', `The channel "${channel.name}" serves no chat or embedding model by a concrete name; name the model to test.`, {
      param: 'model',
      code: 'not_testable',
    });
  }
  return model;
}

/** What a failed Test says: the gateway's own words, or the upstream's status and its parsed error message. */
function failureMessage(failure: GatewayError): string {
  const unparsed = failure.cause instanceof UnparsedUpstreamBody;
  const status = failure.upstreamStatus;
  if (status === undefined) return unparsed ? 'The upstream answered with a body that is not JSON (not shown).' : failure.message;
  if (unparsed) return `The upstream answered HTTP ${status} with a body that is not a JSON error (not shown).`;
  const message = failure.message.length > SAMPLE_CHARS ? `${failure.message.slice(0, SAMPLE_CHARS)}…` : failure.message;
  return `The upstream answered HTTP ${status}: ${message}`;
}

export async function testChannel(definition: ChannelDefinition, deps: ChannelTestDeps, askedModel?: string): Promise<ChannelTestResult> {
  await deps.providers.load([definition.provider]);
  const channel = toRuntimeChannel(definition, deps.providers.get(definition.provider), false);
  return testRuntimeChannel(channel, deps, askedModel);
}

/** The Test of a channel in force (the periodic probes use it); throws a GatewayError when the channel has no model to test. */
export async function testRuntimeChannel(channel: RuntimeChannel, deps: Omit<ChannelTestDeps, 'providers'>, askedModel?: string): Promise<ChannelTestResult> {
  const definition = channel.config;
  const model = chooseModel(channel, deps.catalog, askedModel);
  const operation = testableOperation(channel.provider, deps.catalog, model);
  if (!operation) {
    throw new GatewayError('invalid_request', `Only chat and embedding models can be tested; \`${model}\` is neither on this channel.`, {
      param: 'model',
      code: 'not_testable',
    });
  }
  const attempt = {
    channel: channel.config,
    upstreamModel: channel.upstreamModel(model),
    signal: AbortSignal.timeout(deps.timeoutMs ?? CHANNEL_TEST_TIMEOUT_MS),
    requestId: deps.requestId,
    maxOutputTokens: TEST_MAX_TOKENS,
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const clean = (text: string) => withoutCredentials(text, definition);
  try {
    let sample: string;
    if (operation === 'chat') {
      const answer = await (channel.provider.chat as NonNullable<Provider['chat']>).chat(
        { model, messages: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }], maxTokens: TEST_MAX_TOKENS, stream: false },
        attempt,
      );
      sample = answer.content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('');
    } else {
      const answer = await (channel.provider.embed as NonNullable<Provider['embed']>).embed({ model, inputs: ['ping'] }, attempt);
      sample = `${answer.embeddings[0]?.length ?? 0} dimensions`;
    }
    const latencyMs = elapsed();
    return { ok: true, model, operation, latencyMs, message: `The channel answered in ${latencyMs} ms.`, sample: clean(sample).slice(0, SAMPLE_CHARS) };
  } catch (error) {
    const latencyMs = elapsed();
    const failure = attempt.signal.aborted
      ? new GatewayError('timeout', `No answer within ${deps.timeoutMs ?? CHANNEL_TEST_TIMEOUT_MS} ms.`)
      : toGatewayError(error);
    failure.classifyAsUpstream();
    return {
      ok: false,
      model,
      operation,
      latencyMs,
      status: failure.upstreamStatus ?? failure.status,
      message: clean(failureMessage(failure)),
      errorType: failure.errorType,
      retryable: failure.retryable || attempt.signal.aborted,
    };
  }
}
