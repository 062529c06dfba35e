/**
 * The proxy every agent is told to use for anything but 127.0.0.1 (`HTTPS_PROXY`,
 * `HTTP_PROXY`, `ALL_PROXY` point here; `NO_PROXY` exempts 127.0.0.1 and localhost). It
 * refuses every request and tunnel with a 403 and records where it would have gone, so a test
 * can assert that an agent, with its telemetry and update switches off, tried to reach nothing
 * outside the machine.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../fakes/fake-http.js';

export interface EgressTrap {
  url: string;
  /** `CONNECT host:port` targets and absolute URLs of plain proxied requests. */
  attempts: string[];
  close(): Promise<void>;
}

export async function startEgressTrap(): Promise<EgressTrap> {
  const attempts: string[] = [];
  const server = createServer((req, res) => {
    attempts.push(`${req.method ?? 'GET'} ${req.url ?? ''}`);
    res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
    res.end('egress refused by the agent tests');
  });
  server.on('connect', (req, socket) => {
    attempts.push(`CONNECT ${req.url ?? ''}`);
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, attempts, close: () => closeServer(server) };
}
