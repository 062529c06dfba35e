/**
 * Limits on how long a client may take to send its request, as Fastify and Node options. They
 * bound receiving the request only: once the request is in, the answer (a long stream included)
 * is not cut, unless `connectionTimeoutMs` (off by default) is set.
 */
import type { GatewayConfig } from '../config/types.js';

type ServerSettings = Pick<GatewayConfig['server'], 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'connectionTimeoutMs'>;

interface ServerTimeoutOptions {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
}

export function serverTimeoutOptions(server: ServerSettings): ServerTimeoutOptions {
  // Node checks the deadlines on an interval; a tenth of the shortest keeps them within 10 %.
  const interval = Math.min(1_000, Math.max(10, Math.floor(Math.min(server.headersTimeoutMs, server.requestTimeoutMs) / 10)));
  return {
    requestTimeout: server.requestTimeoutMs,
    keepAliveTimeout: server.keepAliveTimeoutMs,
    connectionTimeout: server.connectionTimeoutMs,
    http: { headersTimeout: server.headersTimeoutMs, requestTimeout: server.requestTimeoutMs, connectionsCheckingInterval: interval },
  };
}
