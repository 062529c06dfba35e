/**
 * How the sandbox's answer tells what it received of documents, e.g.
 * `1 PDF document: 3 pages, 1,234 characters of text` — one clause per kind, in a fixed order.
 */
import type { DocumentPart } from '../../core/chat.js';
import type { DocumentReading, DocumentReadings } from './read-documents.js';

const NUMBER = new Intl.NumberFormat('en-US');

function count(n: number, noun: string): string {
  return `${NUMBER.format(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** Characters as a reader counts them (code points, not UTF-16 units). */
function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function withDetails(n: number, noun: string, details: string[]): string {
  return `${count(n, noun)}: ${details.join('; ')}`;
}

export function describeDocuments(documents: readonly DocumentPart[], readings: DocumentReadings): string[] {
  const of = <K extends DocumentReading['kind']>(kind: K) =>
    documents.map((part) => readings.get(part)).filter((r): r is Extract<DocumentReading, { kind: K }> => r?.kind === kind);
  const clauses: string[] = [];
  const pdfs = of('pdf');
  if (pdfs.length > 0) {
    clauses.push(
      withDetails(
        pdfs.length,
        'PDF document',
        pdfs.map(
          (pdf) =>
            `${count(pdf.pages, 'page')}, ${count(characters(pdf.text), 'character')} of text${pdf.unreadPages ? ` (from the first ${NUMBER.format(pdf.pages - pdf.unreadPages)} pages)` : ''}`,
        ),
      ),
    );
  }
  const unreadable = of('unreadable_pdf');
  if (unreadable.length > 0) {
    const reasons = [...new Set(unreadable.map((pdf) => pdf.reason.replace(/\.$/, '')))].join('; ');
    clauses.push(`${count(unreadable.length, 'PDF document')} it could not read (${reasons})`);
  }
  const texts = of('text');
  if (texts.length > 0)
    clauses.push(
      withDetails(
        texts.length,
        'text document',
        texts.map((doc) => count(characters(doc.text), 'character')),
      ),
    );
  const linked = of('linked');
  if (linked.length > 0) clauses.push(`${count(linked.length, 'linked document')} it did not fetch`);
  const others = of('other');
  if (others.length > 0)
    clauses.push(`${count(others.length, 'document')} of a type it does not read (${[...new Set(others.map((doc) => doc.mediaType))].join(', ')})`);
  // Documents that were not read at all (no readings given) are still counted.
  const unread = documents.filter((part) => !readings.has(part)).length;
  if (unread > 0) clauses.push(count(unread, 'document'));
  return clauses;
}
