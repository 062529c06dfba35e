import { describe, expect, it } from 'vitest';
import { formatLogLine, prettyLogStream } from './pretty-log-stream.js';

describe('pretty log lines', () => {
  it('finding 15: writes a JSON log line as one readable line with time, level, message and fields', () => {
    const line = JSON.stringify({ level: 30, time: '2026-05-01T12:04:05.123Z', reqId: 'req_1', msg: 'request', method: 'GET', url: '/healthz', status: 200 });
    expect(formatLogLine(line, false)).toBe('12:04:05.123 INFO  request reqId=req_1 method=GET url=/healthz status=200\n');
  });

  it('quotes values with spaces, shows an error message and its stack below', () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-05-01T00:00:00.000Z',
      msg: 'shutdown failed',
      note: 'two words',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at a (x.js:1:1)\n    at b (y.js:2:2)' },
    });
    expect(formatLogLine(line, false)).toBe('00:00:00.000 ERROR shutdown failed err=boom note="two words"\n    at a (x.js:1:1)\n    at b (y.js:2:2)\n');
  });

  it('colours the level only when asked', () => {
    const line = JSON.stringify({ level: 40, time: '2026-05-01T00:00:00.000Z', msg: 'careful' });
    expect(formatLogLine(line, true)).toContain('\x1b[33mWARN \x1b[0m');
    expect(formatLogLine(line, false)).not.toContain('\x1b[');
  });

  it('bounds a long value and passes a line that is not JSON through as it is', () => {
    const line = JSON.stringify({ level: 30, time: '2026-05-01T00:00:00.000Z', msg: 'big', body: 'x'.repeat(10_000) });
    expect(formatLogLine(line, false).length).toBeLessThan(600);
    expect(formatLogLine('not json', false)).toBe('not json\n');
  });

  it('writes through the sink it is given', () => {
    const written: string[] = [];
    prettyLogStream({ write: (chunk) => written.push(chunk) }, false).write(`${JSON.stringify({ level: 30, time: '2026-05-01T00:00:00.000Z', msg: 'hi' })}\n`);
    expect(written).toEqual(['00:00:00.000 INFO  hi\n']);
  });
});
