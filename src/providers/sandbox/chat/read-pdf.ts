/**
 * Reads a PDF for real with pdf.js: its page count and its text. pdf.js runs its "worker" in
 * this thread under Node (no worker file needed) and is loaded on first use only, so a gateway
 * that never sees a PDF never pays for it. A PDF that does not parse is reported, not thrown.
 */
import type { TextContent } from 'pdfjs-dist/types/src/display/api.js';

export type PdfReading = { ok: true; pages: number; text: string } | { ok: false; reason: string };

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** A page's text: its items in order, a newline where pdf.js saw a line end. */
function pageText(content: TextContent): string {
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text.trim();
}

/** The text is the pages' texts joined by newlines. Stops early (as unreadable) when `signal` aborts. */
export async function readPdf(bytes: Uint8Array, signal?: AbortSignal): Promise<PdfReading> {
  const { getDocument } = await loadPdfJs();
  // pdf.js may take (transfer) the buffer it is given: it gets its own view of the bytes.
  const task = getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  try {
    const document = await task.promise;
    const texts: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      if (signal?.aborted) return { ok: false, reason: 'the request was aborted' };
      const page = await document.getPage(number);
      texts.push(pageText(await page.getTextContent()));
      page.cleanup();
    }
    return { ok: true, pages: document.numPages, text: texts.join('\n').trim() };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await task.destroy();
  }
}
