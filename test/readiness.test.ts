import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerReadinessRoute } from '../src/http/readiness-route.js';
import { startGateway } from './helpers/start-gateway.js';

describe('/readyz', () => {
  it('is ready when the store answers with its migrations applied and the media folder is writable', async () => {
    const running = await startGateway();
    try {
      const response = await fetch(`${running.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', checks: { store: 'ok', media: 'ok' } });
    } finally {
      await running.close();
    }
  });

  it('is not ready, with the reason, when the media folder cannot be written', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'gengate-readyz-')), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const running = await startGateway({ media: { dir: join(blocker, 'media') } });
    try {
      const response = await fetch(`${running.url}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe('not_ready');
      expect(body.checks.store).toBe('ok');
      expect(body.checks.media).toMatch(/ENOTDIR|not a directory/);
      // Alive all the same: /healthz is only about the process.
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('answers a hung dependency within its deadline, runs one evaluation for a burst of probes, and says draining at once', async () => {
    const http = Fastify();
    let runs = 0;
    let draining = false;
    registerReadinessRoute(http, {
      checks: [
        {
          name: 'redis',
          check: () => {
            runs++;
            return new Promise(() => {});
          },
        },
      ],
      draining: () => draining,
      timeoutMs: 100,
      cacheMs: 60_000,
    });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => http.inject({ method: 'GET', url: '/readyz' })));
    expect(Date.now() - started).toBeLessThan(2000);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'not_ready', checks: { redis: 'no answer within 100 ms' } });
    }
    expect(runs).toBe(1);
    draining = true;
    const drained = await http.inject({ method: 'GET', url: '/readyz' });
    expect(drained.statusCode).toBe(503);
    expect(drained.json().status).toBe('draining');
    expect(runs).toBe(1);
    await http.close();
  });
});
