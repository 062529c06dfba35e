/**
 * Turns whatever stopped a command into one line for stderr and an exit code: 2 for a usage or
 * configuration mistake (a secret key that opens no stored credential included), 1 for anything else. The stack trace is for GENGATE_LOG_LEVEL=debug.
 */
import { ConfigError } from '../config/load-config.js';
import { CredentialKeyError } from '../store/credential-cipher.js';
import { StoreOpenError } from '../store/open-store.js';
import { UsageError } from './usage.js';

interface Failure {
  message: string;
  exitCode: 1 | 2;
  /** Print the usage text after the message. */
  showUsage: boolean;
}

interface ListenError {
  code?: string;
  port?: number;
  address?: string;
  syscall?: string;
}

function listenFailure(error: ListenError): string | undefined {
  if (error.syscall !== 'listen' && error.syscall !== 'bind') return undefined;
  const where = `${error.address ?? 'the configured address'}:${error.port ?? '?'}`;
  if (error.code === 'EADDRINUSE')
    return `cannot listen on ${where}: the port is already in use; stop the other process or choose another port with GENGATE_PORT (or PORT)`;
  if (error.code === 'EACCES')
    return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another port with GENGATE_PORT (or PORT)`;
  if (error.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: this machine has no such address; check GENGATE_HOST (or server.host)`;
  return undefined;
}

export function describeFailure(error: unknown): Failure {
  if (error instanceof UsageError) return { message: error.message, exitCode: 2, showUsage: true };
  if (error instanceof ConfigError) return { message: error.message, exitCode: 2, showUsage: false };
  if (error instanceof CredentialKeyError) return { message: error.message, exitCode: 2, showUsage: false };
  if (error instanceof StoreOpenError) return { message: error.message, exitCode: error.reason === 'unsupported' ? 2 : 1, showUsage: false };
  const listen = error && typeof error === 'object' ? listenFailure(error as ListenError) : undefined;
  if (listen) return { message: listen, exitCode: 1, showUsage: false };
  if ((error as { code?: string })?.code === 'ENOTFOUND' && (error as { syscall?: string }).syscall === 'getaddrinfo') {
    return {
      message: `cannot listen: the host name "${(error as { hostname?: string }).hostname}" does not resolve; check GENGATE_HOST (or server.host)`,
      exitCode: 1,
      showUsage: false,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `${text.split('\n')[0] || 'failed'} (GENGATE_LOG_LEVEL=debug shows the stack trace)`, exitCode: 1, showUsage: false };
}

/** The stack trace, causes included, when debugging was asked for. */
export function debugDetail(error: unknown): string | undefined {
  const lines: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    lines.push(depth === 0 ? (current.stack ?? current.message) : `caused by: ${current.stack ?? current.message}`);
  }
  return lines.length ? lines.join('\n') : undefined;
}
