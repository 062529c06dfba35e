/**
 * A small TCP load balancer for fault tests, as an L4 balancer in front of replicas works: each
 * client connection goes to the next backend in turn; a backend that refuses the connection (killed,
 * or draining and no longer listening) is skipped for that connection, and the next one is tried.
 * It knows nothing of HTTP: a connection stays on the backend it reached. `served` counts the
 * connections each backend took.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpBalancer {
  url: string;
  /** Connections each backend took, by backend index. */
  served: number[];
  /** Client connections no backend accepted. */
  refused(): number;
  close(): Promise<void>;
}

/** Connects to `port` on loopback; resolves the socket once connected, or undefined when refused. */
function tryConnect(port: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(undefined);
    });
  });
}

export async function startTcpBalancer(backendPorts: readonly number[]): Promise<TcpBalancer> {
  const served = backendPorts.map(() => 0);
  const open = new Set<Socket>();
  let next = 0;
  let refused = 0;
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    void (async () => {
      const first = next++ % backendPorts.length;
      for (let tried = 0; tried < backendPorts.length; tried++) {
        const index = (first + tried) % backendPorts.length;
        const backend = await tryConnect(backendPorts[index]);
        if (!backend) continue;
        if (client.destroyed) return void backend.destroy();
        served[index]++;
        open.add(backend);
        // A backend that ends its side ends the client's once the bytes are through; one that dies cuts it.
        backend.on('close', () => {
          open.delete(backend);
          client.end();
        });
        backend.on('error', () => {
          backend.destroy();
          client.destroy();
        });
        client.on('close', () => backend.destroy());
        client.pipe(backend);
        backend.pipe(client);
        client.resume();
        return;
      }
      refused++;
      client.destroy();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the balancer has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    served,
    refused: () => refused,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
