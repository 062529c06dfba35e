import { describe, expect, it } from 'vitest';
import { cleanArkText } from './clean-ark-text.js';

describe('cleanArkText', () => {
  it('keeps a plain message', () => {
    expect(cleanArkText('The request failed because the output video may contain sensitive information. Request ID: 0217')).toBe(
      'The request failed because the output video may contain sensitive information. Request ID: 0217',
    );
  });

  it('takes out URLs and secrets, collapses whitespace and bounds the length', () => {
    expect(cleanArkText('fetch of https://ark.cn-beijing.volces.com/x?sig=1 failed\n  for key sk-secret-1', ['sk-secret-1'])).toBe(
      'fetch of <url> failed for key <secret>',
    );
    expect(cleanArkText('x'.repeat(600))).toHaveLength(501);
  });

  it('is empty for anything but a string', () => {
    expect(cleanArkText({ message: 'x' })).toBe('');
    expect(cleanArkText(undefined)).toBe('');
  });
});
