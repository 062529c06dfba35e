/** The admin API's shape of one channel's health (`gateway/channel-prober.ts`, `ChannelHealth`). */
import { ERROR_TYPES } from '../core/error-type.js';

const PROBE_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    at: { type: 'number', description: 'When the probe ended (ms since the epoch)' },
    latencyMs: { type: 'number' },
    model: { type: 'string' },
    status: { type: 'number', description: "The upstream's HTTP status of a failure, when it answered" },
    errorType: { type: 'string', enum: [...ERROR_TYPES] },
    message: { type: 'string', description: 'Why it failed (never a credential)' },
  },
  required: ['ok', 'at', 'latencyMs'],
} as const;

export const CHANNEL_HEALTH_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    autoDisabled: { type: 'boolean', description: 'Disabled by the gateway after its credentials were refused repeatedly' },
    breaker: { type: 'string', enum: ['closed', 'open', 'half-open'], description: "The circuit breaker's state in this process" },
    probe: {
      type: ['object', 'null'],
      properties: { enabled: { type: 'boolean' }, intervalSeconds: { type: 'integer' }, autoEnable: { type: 'boolean' } },
      required: ['enabled', 'intervalSeconds', 'autoEnable'],
    },
    probeOk: { type: ['boolean', 'null'], description: "The last probe's verdict; null before any" },
    lastProbeLatencyMs: { type: ['number', 'null'] },
    lastProbeAt: { type: ['number', 'null'] },
    errorRate5m: { type: ['number', 'null'], description: 'Upstream errors per attempt of real calls over the last 5 minutes; null without calls' },
    calls5m: { type: 'integer', description: 'Attempts on the channel over the last 5 minutes' },
    errors5m: { type: 'integer', description: 'Of them, failures of the upstream (error types `upstream.*`)' },
    recentProbes: { type: 'array', items: PROBE_RESULT_SCHEMA, description: 'The last probes, newest first (at most 10)' },
  },
  required: [
    'name',
    'enabled',
    'autoDisabled',
    'breaker',
    'probe',
    'probeOk',
    'lastProbeLatencyMs',
    'lastProbeAt',
    'errorRate5m',
    'calls5m',
    'errors5m',
    'recentProbes',
  ],
} as const;
