import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/load-config.js';
import { StoreOpenError } from '../store/open-store.js';
import { debugDetail, describeFailure } from './describe-failure.js';
import { UsageError } from './usage.js';

function listenError(code: string, address = '127.0.0.1', port = 8080): Error {
  return Object.assign(new Error(`listen ${code}: ${address}:${port}`), { code, syscall: 'listen', address, port });
}

describe('describeFailure', () => {
  it('finding 14: usage and configuration mistakes exit 2, failures exit 1', () => {
    expect(describeFailure(new UsageError('unknown command "x"'))).toEqual({ message: 'unknown command "x"', exitCode: 2, showUsage: true });
    expect(describeFailure(new ConfigError('PORT="abc" is not a port'))).toMatchObject({ exitCode: 2, showUsage: false });
    expect(describeFailure(new StoreOpenError('unsupported database URL', 'unsupported'))).toMatchObject({ exitCode: 2 });
    expect(describeFailure(new StoreOpenError('cannot reach PostgreSQL', 'unreachable'))).toMatchObject({ exitCode: 1 });
  });

  it('finding 14: says what to do when the port cannot be listened on', () => {
    expect(describeFailure(listenError('EADDRINUSE')).message).toMatch(
      /^cannot listen on 127\.0\.0\.1:8080: the port is already in use; .*GENGATE_PORT \(or PORT\)/,
    );
    expect(describeFailure(listenError('EACCES', '0.0.0.0', 80)).message).toMatch(/^cannot listen on 0\.0\.0\.0:80: permission denied/);
    expect(describeFailure(listenError('EADDRNOTAVAIL', '203.0.113.9')).message).toMatch(/no such address; check GENGATE_HOST/);
  });

  it('anything else: its first line, and where to find the rest', () => {
    const failure = describeFailure(new Error('something broke\n  with details'));
    expect(failure).toEqual({ message: 'something broke (GENGATE_LOG_LEVEL=debug shows the stack trace)', exitCode: 1, showUsage: false });
    const detail = debugDetail(new Error('outer', { cause: new Error('inner') }))!;
    expect(detail).toMatch(/^Error: outer\n\s+at /);
    expect(detail).toContain('caused by: Error: inner');
  });
});
