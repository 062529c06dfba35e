import type { Server } from 'node:http';

/** Stops a fake upstream at once: open keep-alive connections are cut, then the server closes. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
