/**
 * Reads a PDF for real with pdf.js: its page count and its text. pdf.js runs its "worker" in
 * this thread under Node (no worker file needed) and is loaded on first use only, so a gateway
 * that never sees a PDF never pays for it. A PDF that does not parse is reported, not thrown.
 */
import type { TextContent } from 'pdfjs-dist/types/src/display/api.js';

/** `unreadPages` (only when some were left): pages past the bounds whose text was not read. */
type PdfReading = { ok: true; pages: number; text: string; unreadPages?: number } | { ok: false; reason: string };

/** Bounds of one reading: pdf.js works on the event loop, so a long PDF is read only in part. */
interface PdfReadLimits {
  maxPages: number;
  maxTextChars: number;
  /** Pages are not started after this long. */
  maxMs: number;
}

const PDF_READ_LIMITS: PdfReadLimits = { maxPages: 100, maxTextChars: 1_000_000, maxMs: 5_000 };

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

/**
 * The text is the pages' texts joined by newlines, up to the limits (the rest is reported as
 * unread pages). Stops early (as unreadable) when `signal` aborts.
 */
export async function readPdf(bytes: Uint8Array, signal?: AbortSignal, limits: PdfReadLimits = PDF_READ_LIMITS): Promise<PdfReading> {
  const deadline = performance.now() + limits.maxMs;
  const { getDocument } = await loadPdfJs();
  // pdf.js may take (transfer) the buffer it is given: it gets its own view of the bytes.
  const task = getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  try {
    const document = await task.promise;
    const texts: string[] = [];
    let chars = 0;
    let read = 0;
    while (read < document.numPages && read < limits.maxPages && chars < limits.maxTextChars && performance.now() < deadline) {
      if (signal?.aborted) return { ok: false, reason: 'the request was aborted' };
      const page = await document.getPage(read + 1);
      const text = pageText(await page.getTextContent()).slice(0, limits.maxTextChars - chars);
      page.cleanup();
      texts.push(text);
      chars += text.length + 1;
      read++;
    }
    const reading: PdfReading = { ok: true, pages: document.numPages, text: texts.join('\n').trim() };
    if (read < document.numPages) reading.unreadPages = document.numPages - read;
    return reading;
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await task.destroy();
  }
}
