/**
 * The base of every link the gateway hands out or stores (media, task results, setup links):
 * the configured public URL; else the host the client named, when it is one the gateway
 * answers to (localhost names and `server.allowedHosts`); else the address the connection
 * reached. Never an unchecked Host header: a stored link would send whoever opens it — an
 * admin in the dashboard — to a host a client chose.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface PublicUrlSettings {
  /** `GENGATE_PUBLIC_URL` (`media.publicBaseUrl`), without a trailing slash. */
  publicBaseUrl?: string;
  /** Host names (lower case, no port) a client's Host header may name. */
  allowedHosts: readonly string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    publicUrlSettings?: PublicUrlSettings;
  }
}

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
/** `name[:port]` or `[ipv6][:port]`; anything else (paths, user info, spaces) is not a host. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::\d{1,5})?$/;

/** Decorates `app` (and so every route scope) with the settings `publicBaseUrl` reads. */
export function installPublicUrlSettings(app: FastifyInstance, settings: PublicUrlSettings): void {
  app.decorate('publicUrlSettings', { ...settings, allowedHosts: settings.allowedHosts.map((name) => name.toLowerCase()) });
}

export function publicBaseUrl(request: FastifyRequest): string {
  const settings = request.server.publicUrlSettings;
  if (settings?.publicBaseUrl) return settings.publicBaseUrl;
  const host = request.host.toLowerCase();
  const match = HOST_HEADER.exec(host);
  const name = match?.[1] ?? match?.[2];
  if (name !== undefined && (LOCAL_NAMES.has(name) || settings?.allowedHosts.includes(name))) return `${request.protocol}://${host}`;
  return `${request.protocol}://${localAddress(request)}`;
}

/** The address and port this connection reached (the listen address, made concrete). */
function localAddress(request: FastifyRequest): string {
  const socket = request.socket;
  const address = (socket?.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  const name = address.includes(':') ? `[${address}]` : address;
  return socket?.localPort ? `${name}:${socket.localPort}` : name;
}
