import { describe, expect, it } from 'vitest';
import { briefError } from './brief-error.js';

describe('briefError', () => {
  it('keeps the headline and the first line that names the error', () => {
    const message =
      'gengate exited (1) before it was ready:\n\nnode:internal/modules/run_main:123\n    triggerUncaughtException(\nError [ERR_MODULE_NOT_FOUND]: Cannot find module x\n    at y';
    expect(briefError(message)).toBe('gengate exited (1) before it was ready: Error [ERR_MODULE_NOT_FOUND]: Cannot find module x');
  });

  it('falls back to the headline alone, bounded', () => {
    expect(briefError('just this\nand that')).toBe('just this');
    expect(briefError('x'.repeat(400))).toHaveLength(300);
    expect(briefError('')).toBe('');
  });
});
