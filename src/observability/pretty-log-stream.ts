/**
 * A pino destination that writes each JSON log line as one human-readable line, for a person
 * watching a terminal: `12:04:05.123 INFO  request method=GET url=/healthz status=200 ms=1`.
 * An error's stack follows on indented lines.
 */
const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '90' },
  20: { name: 'DEBUG', colour: '36' },
  30: { name: 'INFO ', colour: '32' },
  40: { name: 'WARN ', colour: '33' },
  50: { name: 'ERROR', colour: '31' },
  60: { name: 'FATAL', colour: '35' },
};

/** Longest rendering of one field value; a log line is for reading, the JSON format has it all. */
const MAX_VALUE_CHARS = 500;

function paint(text: string, colour: string, colours: boolean): string {
  return colours ? `\x1b[${colour}m${text}\x1b[0m` : text;
}

function renderValue(value: unknown): string {
  const text = typeof value === 'string' ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

export function formatLogLine(line: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const { level, time, msg, err, ...fields } = entry;
  const known = LEVELS[level as number] ?? { name: String(level).padEnd(5), colour: '0' };
  const clock = typeof time === 'string' ? (time.split('T')[1]?.replace('Z', '') ?? time) : new Date(Number(time)).toISOString().slice(11, 23);
  const parts = [paint(clock, '90', colours), paint(known.name, known.colour, colours)];
  if (typeof msg === 'string' && msg) parts.push(msg);
  const error = err as { message?: unknown; stack?: unknown } | undefined;
  if (error && typeof error === 'object' && typeof error.message === 'string') parts.push(paint(`err=${renderValue(error.message)}`, '31', colours));
  for (const [key, value] of Object.entries(fields)) parts.push(`${paint(key, '90', colours)}=${renderValue(value)}`);
  let out = parts.join(' ');
  if (error && typeof error.stack === 'string') {
    out += `\n${error.stack
      .split('\n')
      .slice(1)
      .map((l) => `    ${l.trim()}`)
      .join('\n')}`;
  }
  return `${out}\n`;
}

interface LineSink {
  write(chunk: string): unknown;
}

/** pino writes one complete JSON line per call to `write`. */
export function prettyLogStream(sink: LineSink, colours: boolean): { write(line: string): void } {
  return { write: (line: string) => void sink.write(formatLogLine(line.trimEnd(), colours)) };
}
