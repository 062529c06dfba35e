import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { chooseLogFormat, loggerOptions } from './logger.js';

describe('log format', () => {
  it('finding 15: readable lines on a terminal, JSON otherwise, unless GENGATE_LOG_FORMAT says', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('redaction', () => {
  it('keeps channel credentials and authorization headers out of log lines, wherever they sit', () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions('info'), { write: (line: string) => lines.push(line) });
    const channel = { name: 'c', provider: 'openai', apiKey: 'sk-secret-1234567890', headers: { 'x-org': 'org-secret-header' } };
    logger.info({ channel }, 'a');
    logger.info({ config: channel }, 'b');
    logger.info({ stored: { definition: channel } }, 'c');
    logger.info({ apiKey: 'sk-secret-1234567890', credentials: 'v1.x.y' }, 'd');
    logger.info({ request: { headers: { authorization: 'Bearer sk-secret-1234567890', 'x-api-key': 'sk-secret-1234567890' } } }, 'e');
    logger.info({ secretKey: 'k', masterKey: 'm' }, 'f');
    const text = lines.join('');
    expect(lines).toHaveLength(6);
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('org-secret-header');
    expect(text).not.toContain('v1.x.y');
    expect(text).toContain('[redacted]');
    expect(JSON.parse(lines[0]).channel).toMatchObject({ name: 'c', provider: 'openai', apiKey: '[redacted]', headers: '[redacted]' });
  });
});
