import { countTokens } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { limitOutputText } from './limit-output-text.js';
import { loadTokenizer } from '../../core/tokenizer.js';

beforeAll(() => loadTokenizer());

const TEXT = 'one two three four five six seven';

describe('limitOutputText', () => {
  it('keeps the whole text when nothing limits it', () => {
    const out = limitOutputText(TEXT, undefined, undefined);
    expect(out).toMatchObject({ text: TEXT, finishReason: 'stop', stopSequence: null });
    expect(out.tokens.length).toBe(countTokens(TEXT));
  });

  it('cuts after maxTokens tokens and finishes with length', () => {
    const out = limitOutputText(TEXT, 5, undefined);
    expect(out.text).toBe('one two three four five');
    expect(out.tokens.length).toBe(5);
    expect(out.finishReason).toBe('length');
    expect(out.stopSequence).toBeNull();
  });

  it('cuts before the earliest stop sequence and reports it', () => {
    expect(limitOutputText(TEXT, undefined, ['four'])).toMatchObject({ text: 'one two three ', finishReason: 'stop_sequence', stopSequence: 'four' });
    expect(limitOutputText(TEXT, 100, ['six', 'two'])).toMatchObject({ text: 'one ', finishReason: 'stop_sequence', stopSequence: 'two' });
  });

  it('lets maxTokens win when it is reached before the stop sequence', () => {
    expect(limitOutputText(TEXT, 2, ['six'])).toMatchObject({ text: 'one two', finishReason: 'length', stopSequence: null });
  });

  it('ignores empty and absent stop sequences', () => {
    expect(limitOutputText(TEXT, undefined, ['', 'zebra'])).toMatchObject({ text: TEXT, finishReason: 'stop', stopSequence: null });
  });

  it('gives empty text for maxTokens 0', () => {
    expect(limitOutputText(TEXT, 0, undefined)).toMatchObject({ text: '', tokens: [], finishReason: 'length' });
  });
});
