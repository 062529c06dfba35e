import { describe, expect, it } from 'vitest';
import { chooseLogFormat } from './logger.js';

describe('log format', () => {
  it('finding 15: readable lines on a terminal, JSON otherwise, unless GENGATE_LOG_FORMAT says', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});
