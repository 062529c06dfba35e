import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { allowPrivateUpstreams, connectUpstream } from './upstream-connector.js';

function connect(hostname: string, port: string): Promise<{ error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    connectUpstream({ hostname, protocol: 'http:', port }, (error, socket) => {
      socket?.destroy();
      resolve({ error: error ?? undefined });
    });
  });
}

describe('upstream connections (finding 9)', () => {
  afterEach(() => allowPrivateUpstreams(false));

  it('refuses metadata hosts by address and by name, whatever the setting, without connecting', async () => {
    allowPrivateUpstreams(true);
    for (const host of ['169.254.169.254', '[fd00:ec2::254]', 'metadata.google.internal']) {
      expect((await connect(host, '80')).error?.code, host).toBe('EPRIVATEADDRESS');
    }
  });

  it('refuses private networks unless allowed', async () => {
    expect((await connect('10.0.0.5', '80')).error?.code).toBe('EPRIVATEADDRESS');
  });

  it('connects to loopback, by address and by a name that resolves to it', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      expect((await connect('127.0.0.1', port)).error).toBeUndefined();
      const byName = await connect('localhost', port);
      // localhost may resolve to ::1 first, where nothing listens: refused by the host, not by the gateway.
      expect(byName.error?.code).not.toBe('EPRIVATEADDRESS');
    } finally {
      server.close();
    }
  });
});
