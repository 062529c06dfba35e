import { pino, type Logger } from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';

type LogFormat = 'json' | 'pretty';

/** JSON lines for machines (the default off a terminal), readable lines for a person at one. */
export function chooseLogFormat(format: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return format ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

const credentialFields = ['apiKey', 'credentials', 'secretKey', 'masterKey', 'password', 'authorization'];
const credentialHeaders = ['x-api-key', 'x-goog-api-key'];
const headerHolders = ['channel', 'config', 'definition'];

/**
 * Fields that never reach a log line, at the top level and up to two levels down: upstream
 * credentials (a channel's `apiKey`, its `headers`, which may carry a token), the gateway's own
 * keys, and authorization headers.
 */
const REDACTED_LOG_PATHS: readonly string[] = [
  ...credentialFields.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  ...credentialHeaders.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
  ...headerHolders.flatMap((holder) => [`${holder}.headers`, `*.${holder}.headers`]),
];

/** Options shared by every logger of the gateway (also for tests building their own pino). */
export function loggerOptions(level: string) {
  return { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: [...REDACTED_LOG_PATHS], censor: '[redacted]' } };
}

export function createLogger(level: string, format?: LogFormat): Logger {
  const options = loggerOptions(level);
  if (chooseLogFormat(format, process.stdout.isTTY === true) === 'json') return pino(options);
  const colours = process.stdout.isTTY === true && !process.env.NO_COLOR;
  return pino(options, prettyLogStream(process.stdout, colours));
}
