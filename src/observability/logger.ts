import { pino, type Logger } from 'pino';
import { prettyLogStream } from './pretty-log-stream.js';

export type LogFormat = 'json' | 'pretty';

/** JSON lines for machines (the default off a terminal), readable lines for a person at one. */
export function chooseLogFormat(format: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return format ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

export function createLogger(level: string, format?: LogFormat): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (chooseLogFormat(format, process.stdout.isTTY === true) === 'json') return pino(options);
  const colours = process.stdout.isTTY === true && !process.env.NO_COLOR;
  return pino(options, prettyLogStream(process.stdout, colours));
}
