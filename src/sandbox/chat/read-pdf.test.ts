import { describe, expect, it } from 'vitest';
import { buildTestPdf } from '../../../test/helpers/build-test-pdf.js';
import { readPdf } from './read-pdf.js';

describe('readPdf', () => {
  it('counts the pages and extracts the text, a line per line, pages joined by newlines', async () => {
    const pdf = buildTestPdf([['Quarterly report (draft)', 'Revenue grew by 12 percent.'], ['Second page: outlook.'], []]);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const reading = await readPdf(new Uint8Array(pdf));
    expect(reading).toEqual({ ok: true, pages: 3, text: 'Quarterly report (draft)\nRevenue grew by 12 percent.\nSecond page: outlook.' });
  });

  it('reports a file that is not a readable PDF instead of throwing', async () => {
    const truncated = buildTestPdf([['some text']]).subarray(0, 120);
    expect(await readPdf(new Uint8Array(truncated))).toEqual({ ok: false, reason: 'Invalid PDF structure.' });
    expect(await readPdf(new Uint8Array(Buffer.from('%PDF-')))).toEqual({ ok: false, reason: expect.any(String) });
  });

  it('does not disturb the bytes around a small view it was given', async () => {
    const pdf = buildTestPdf([['tiny']]);
    const backing = Buffer.concat([Buffer.from('before'), pdf, Buffer.from('after')]);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 6, pdf.length);
    expect(await readPdf(view)).toEqual({ ok: true, pages: 1, text: 'tiny' });
    expect(backing.subarray(0, 6).toString()).toBe('before');
    expect(backing.byteLength).toBe(pdf.length + 11);
  });

  it('stops reading when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await readPdf(new Uint8Array(buildTestPdf([['a'], ['b']])), controller.signal)).toEqual({ ok: false, reason: 'the request was aborted' });
  });
});

describe('readPdf bounds', () => {
  it('reads at most the page and text limits, and reports the pages left unread', async () => {
    // pdf.js may take the buffer it is given: each reading gets its own copy.
    const pdf = () => new Uint8Array(buildTestPdf([['one'], ['two'], ['three'], ['four']]));
    expect(await readPdf(pdf(), undefined, { maxPages: 2, maxTextChars: 1_000, maxMs: 5_000 })).toEqual({
      ok: true,
      pages: 4,
      text: 'one\ntwo',
      unreadPages: 2,
    });
    expect(await readPdf(pdf(), undefined, { maxPages: 100, maxTextChars: 6, maxMs: 5_000 })).toEqual({ ok: true, pages: 4, text: 'one\ntw', unreadPages: 2 });
    expect(await readPdf(pdf(), undefined, { maxPages: 100, maxTextChars: 1_000, maxMs: 0 })).toEqual({ ok: true, pages: 4, text: '', unreadPages: 4 });
  });
});
