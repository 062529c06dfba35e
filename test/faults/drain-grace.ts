/** Client helpers for the drain grace period: a steady load that notes when each request left, and one raw kept-alive connection. */
import { connect } from 'node:net';
import { send, type Kind, type Seen } from './mixed-load.js';

export interface Timed extends Seen {
  sentAt: number;
}

/** `workers` loops over `kinds`, one request after the other, until `stop` fires. */
export function steadyLoad(url: string, kinds: Kind[], workers: number, stop: AbortSignal): Promise<Timed[]> {
  const all: Timed[] = [];
  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; !stop.aborted; i++) {
      const sentAt = Date.now();
      all.push({ ...(await send(kinds[i % kinds.length], url)), sentAt });
    }
  });
  return Promise.all(loops).then(() => all);
}

/** One kept-alive connection: write raw requests on it, read everything until the server closes it. */
export function rawConnection(url: string): { write(request: string): void; received: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const received = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { write: (request) => socket.write(request), received };
}

export function rawPost(path: string, headers: Record<string, string>, body: unknown): string {
  const json = JSON.stringify(body);
  const lines = Object.entries({ host: 'gateway', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), ...headers });
  return `POST ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${json}`;
}
