import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../observability/logger.js';
import { LazyRequestLogger, lazyChildLoggerFactory } from './lazy-request-logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino(loggerOptions(level), stream);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

describe('LazyRequestLogger', () => {
  it('makes no pino child while nothing is logged at an enabled level', () => {
    const { logger, lines, children } = capture('warn');
    const lazy = new LazyRequestLogger(logger as FastifyBaseLogger, { reqId: 'r1' }, {});
    lazy.info('not at this level');
    lazy.debug({ a: 1 }, 'nor this');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    expect(lazy.level).toBe('warn');
    expect(lazy.isLevelEnabled('error')).toBe(true);
    expect(lazy.isLevelEnabled('info')).toBe(false);
  });

  it('logs through a child with the bindings and the parent redaction once a line is written', async () => {
    const { logger, lines, children } = capture('info');
    const lazy = new LazyRequestLogger(logger as FastifyBaseLogger, { reqId: 'r2' }, {});
    lazy.error({ apiKey: 'sk-secret-value', detail: 'x' }, 'failed');
    lazy.info('second');
    expect(children()).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'r2', msg: 'failed', apiKey: '[redacted]', detail: 'x', level: 50 });
    expect(lines[1]).toMatchObject({ reqId: 'r2', msg: 'second' });
    expect(lazy.bindings()).toEqual({ reqId: 'r2' });
  });

  it('honours a level of its own (route log levels)', () => {
    const { logger, lines } = capture('warn');
    const lazy = new LazyRequestLogger(logger as FastifyBaseLogger, { reqId: 'r3' }, { level: 'debug' });
    lazy.debug('route-level debug');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r3', msg: 'route-level debug' })]);
  });

  it('is what a Fastify request logs with', async () => {
    const { logger, lines } = capture('info');
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      childLoggerFactory: lazyChildLoggerFactory,
      logController: new LogController({ disableRequestLogging: true }),
    });
    app.get('/quiet', async () => 'ok');
    app.get('/loud', async (request) => {
      request.log.info({ authorization: 'Bearer x' }, 'handled');
      return 'ok';
    });
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const loud = await app.inject('/loud');
    expect(loud.statusCode).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ reqId: expect.any(String), msg: 'handled', authorization: '[redacted]' })]);
    await app.close();
  });
});
