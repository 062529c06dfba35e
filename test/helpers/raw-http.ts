/**
 * Raw HTTP over a `net` socket, for requests no HTTP client would send (bad framing, partial
 * requests): writes the given chunks, then reads until the server closes the connection or
 * `waitMs` passes (the socket is then destroyed and `closedByServer` is false).
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** Whether the server closed the connection within `waitMs`. */
  closedByServer: boolean;
  /** Milliseconds from connecting to the close. */
  elapsedMs: number;
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

export function rawHttp(url: string, chunks: Array<string | Buffer>, waitMs = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const received: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    let byServer = true;
    const timer = setTimeout(() => {
      byServer = false;
      socket.destroy();
    }, waitMs);
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedByServer: byServer, elapsedMs: Date.now() - started, ...parseResponse(Buffer.concat(received).toString('utf8')) });
    });
  });
}

function parseResponse(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body' | 'json'> {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}
