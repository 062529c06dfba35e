import { describe, expect, it } from 'vitest';
import { splitModelAction } from './split-model-action.js';

describe('splitModelAction', () => {
  it('splits on the last colon', () => {
    expect(splitModelAction('gemini-2.5-flash:generateContent')).toEqual({ model: 'gemini-2.5-flash', action: 'generateContent' });
    expect(splitModelAction('ft:my-model:streamGenerateContent')).toEqual({ model: 'ft:my-model', action: 'streamGenerateContent' });
  });

  it('rejects a segment without a model or an action', () => {
    expect(splitModelAction('gemini-2.5-flash')).toBeUndefined();
    expect(splitModelAction(':generateContent')).toBeUndefined();
    expect(splitModelAction('gemini:')).toBeUndefined();
  });
});
