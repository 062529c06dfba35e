import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../core/sse.js';
import { SseFindings } from './sse-findings.js';

const producedTextOf = (event: SseEvent, emit: (text: string) => void): void => emit((JSON.parse(event.data) as { t: string }).t);

describe('SseFindings', () => {
  it('merges the usage found and reports none when none was', () => {
    const findings = new SseFindings(undefined);
    expect(findings.result(true)).toEqual({ completed: true, producedText: '' });
    findings.usage({ inputTokens: 3 });
    findings.usage({ outputTokens: 4 });
    findings.text('ab');
    expect(findings.result(true)).toEqual({ usage: { inputTokens: 3, outputTokens: 4 }, completed: true, producedText: 'ab' });
  });

  it('reads the produced text of a cut stream from the complete events of the kept chunks', () => {
    const findings = new SseFindings(producedTextOf);
    findings.keep(Buffer.from('data: {"t":"he"}\n\ndata: {"t":'));
    findings.keep(Buffer.from('"llo"}\n\ndata: {"t":"unfinished'));
    expect(findings.result(false)).toEqual({ completed: false, producedText: 'hello' });
  });

  it('keeps nothing to read when the stream ended normally, or without producedTextOf', () => {
    const completed = new SseFindings(producedTextOf);
    completed.keep(Buffer.from('data: {"t":"x"}\n\n'));
    expect(completed.result(true).producedText).toBe('');
    const without = new SseFindings(undefined);
    without.keep(Buffer.from('data: {"t":"x"}\n\n'));
    expect(without.result(false).producedText).toBe('');
  });
});
