/**
 * Every metric gengate exposes, named after the OpenTelemetry GenAI semantic conventions where
 * they define one (dots as underscores, the unit as a suffix) and `gengate_*` otherwise.
 */
import { CounterFamily, HistogramFamily } from './fast-metrics.js';

/** OpenTelemetry's advised boundaries for `gen_ai.client.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** OpenTelemetry's advised boundaries for `gen_ai.server.time_to_first_token`, in seconds. */
const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** OpenTelemetry's advised boundaries for `gen_ai.client.token.usage`. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
/** The gateway's own time is sub-millisecond when all is well: fine buckets there. */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const DB_WRITE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export function metricFamilies() {
  return {
    operationDuration: new HistogramFamily(
      'gen_ai_client_operation_duration_seconds',
      'GenAI operation duration as the client of gengate sees it (admission to end), by operation, provider, request and response model, and error type on failure.',
      DURATION_BUCKETS,
    ),
    tokenUsage: new HistogramFamily('gen_ai_client_token_usage', 'Tokens used per call, by token type (input, output).', TOKEN_BUCKETS),
    timeToFirstToken: new HistogramFamily(
      'gen_ai_server_time_to_first_token_seconds',
      "Time from a translated stream's admission to its first content (text, thinking or tool-call arguments).",
      TTFT_BUCKETS,
    ),
    requests: new CounterFamily('gengate_requests_total', 'Calls ended, by surface, operation, model, channel, status class and error type.'),
    httpResponses: new CounterFamily(
      'gengate_http_responses_total',
      'HTTP answers of the main port by status class, calls or not (a refused key never becomes a call).',
    ),
    overhead: new HistogramFamily(
      'gengate_overhead_seconds',
      'Time spent in gengate itself, upstream time excluded (a stream: until its headers went out; a whole answer: all of it).',
      OVERHEAD_BUCKETS,
    ),
    upstreamDuration: new HistogramFamily(
      'gengate_upstream_duration_seconds',
      'Upstream attempts, start to answer (a stream: to the end of its events), by channel and outcome.',
      DURATION_BUCKETS,
    ),
    upstreamTimeToFirstByte: new HistogramFamily(
      'gengate_upstream_time_to_first_byte_seconds',
      'Time until the upstream answered an attempt (a stream: accepted it), by channel.',
      TTFT_BUCKETS,
    ),
    attemptFailures: new CounterFamily('gengate_upstream_attempt_failures_total', 'Upstream attempts that failed, by channel and error type.'),
    failovers: new CounterFamily('gengate_failover_attempts_total', 'Attempts made after an earlier channel failed, by the channel tried next.'),
    refusals: new CounterFamily('gengate_admission_refusals_total', 'Calls refused by a rate limit or a budget, by reason.'),
    cost: new CounterFamily('gengate_cost_nusd_total', 'What calls cost, in nUSD (10^-9 USD, the ledger unit), by model and channel.'),
    unpriced: new CounterFamily(
      'gengate_unpriced_calls_total',
      'Calls an upstream answered for a model the catalog has no price for (recorded at cost 0), by model and channel.',
    ),
    usageWrite: new HistogramFamily('gengate_usage_db_write_seconds', 'Batched usage-row writes to the database, by outcome.', DB_WRITE_BUCKETS),
  };
}

export type MetricFamilies = ReturnType<typeof metricFamilies>;
