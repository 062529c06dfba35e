import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, guardedLookup } from './guarded-fetch.js';
import { isPrivateAddress } from './private-addresses.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(100, 1));
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (req.url === '/hop') {
      res.writeHead(302, { location: '/image' });
      res.end();
    } else if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (req.url === '/to-ftp') {
      res.writeHead(302, { location: 'ftp://example.com/x' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const open = { allowPrivate: true, maxBytes: 1000, timeoutMs: 2000, param: 'image' };
const guarded = { ...open, allowPrivate: false };

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd12::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
    ['not-an-ip', true],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('guardedFetch', () => {
  it('fetches when private targets are allowed, following a redirect', async () => {
    const body = await guardedFetch(`${base}/hop`, open);
    expect(body.data.length).toBe(100);
    expect(body.contentType).toBe('image/png');
    expect(body.finalUrl).toBe(`${base}/image`);
  });

  it('refuses loopback and localhost targets by default, naming the field', async () => {
    await expect(guardedFetch(`${base}/image`, guarded)).rejects.toMatchObject({ kind: 'invalid_request', param: 'image' });
    await expect(guardedFetch(`${base}/image`, guarded)).rejects.toThrow(/private or loopback/);
    await expect(guardedFetch(`http://localhost:1/image`, guarded)).rejects.toThrow(/private or loopback/);
    await expect(guardedFetch(`http://[::1]:1/image`, guarded)).rejects.toThrow(/private or loopback/);
  });

  it('refuses IPv6 literals that carry a loopback IPv4 address before connecting (minor finding of issue 8)', async () => {
    for (const literal of ['::7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::', '::127.0.0.1', '64:ff9b::7f00:1', '2001:0:4136:e378:8000:63bf:80ff:fffe']) {
      await expect(guardedFetch(`http://[${literal}]:1/image`, guarded), literal).rejects.toThrow(/points to a private or loopback address/);
    }
  });

  it('refuses a host name that resolves to a private address at connect time', async () => {
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/private address/);
  });

  it('refuses other schemes, credentials, redirects to other schemes and redirect loops', async () => {
    await expect(guardedFetch('file:///etc/passwd', open)).rejects.toThrow(/only http and https/);
    await expect(guardedFetch('http://user:pw@127.0.0.1/', open)).rejects.toThrow(/credentials/);
    await expect(guardedFetch(`${base}/to-ftp`, open)).rejects.toThrow(/only http and https/);
    await expect(guardedFetch(`${base}/loop`, open)).rejects.toThrow(/too many redirects/);
    await expect(guardedFetch('not a url', open)).rejects.toThrow(/not a valid URL/);
  });

  it('stops reading past the size cap and reports HTTP errors', async () => {
    await expect(guardedFetch(`${base}/big`, open)).rejects.toThrow(/larger than the limit of 1000 bytes/);
    await expect(guardedFetch(`${base}/missing`, open)).rejects.toThrow(/HTTP 404/);
  });
});
