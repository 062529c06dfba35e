/**
 * The compatibility matrix of docs/compatibility.md, written from test runs. Each test file that
 * contributes rows owns one section of the document, between `<!-- matrix:NAME -->` and
 * `<!-- /matrix:NAME -->`: it collects a `MatrixRow` per case it ran, renders the section with
 * `renderMatrixSection`, and `checkMatrixSection` asserts the document holds exactly that (or,
 * with `GENGATE_UPDATE_DOCS=1`, rewrites the section in place and leaves the rest alone). A
 * new group of rows (the SDK tests) is a new section with its own name; nothing else changes.
 * A cell is `pass` when every check of that feature passed in the run, `FAIL` when one failed,
 * `—` when the case did not exercise the feature.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './agent-definition.js';

export const FEATURES = ['plain', 'stream', 'tools', 'structured output', 'reasoning', 'state'] as const;
export type Feature = (typeof FEATURES)[number];

export interface MatrixRow {
  /** The client and its exact version, e.g. `Claude Code 2.1.332`. */
  client: string;
  /** The gateway surface it spoke. */
  surface: string;
  /** The upstream dialect the gateway translated to. */
  upstream: string;
  /** true: every check of the feature passed; false: one failed; absent: not exercised. */
  features: Partial<Record<Feature, boolean>>;
  /** Why a case failed (stable across runs: failed checks and routes, never timings). */
  note: string;
}

export const DOC_PATH = join(REPO_ROOT, 'docs/compatibility.md');

function cell(value: boolean | undefined): string {
  if (value === undefined) return '—';
  return value ? 'pass' : 'FAIL';
}

export function renderMatrixSection(rows: MatrixRow[]): string {
  const sorted = [...rows].sort((a, b) => a.client.localeCompare(b.client) || a.surface.localeCompare(b.surface) || a.upstream.localeCompare(b.upstream));
  const header = ['client', 'surface', 'upstream', ...FEATURES, 'notes'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of sorted) {
    const note = row.note.replaceAll('|', '\\|');
    lines.push(`| ${[row.client, row.surface, row.upstream, ...FEATURES.map((feature) => cell(row.features[feature])), note].join(' | ')} |`);
  }
  return lines.join('\n');
}

function markers(section: string): [string, string] {
  return [`<!-- matrix:${section} -->`, `<!-- /matrix:${section} -->`];
}

/** The text between the section's markers in the document, or undefined when it has none. */
export function readMatrixSection(document: string, section: string): string | undefined {
  const [open, close] = markers(section);
  const start = document.indexOf(open);
  const end = document.indexOf(close);
  if (start < 0 || end < start) return undefined;
  return document.slice(start + open.length, end).trim();
}

/**
 * Compares the document's section with the rendered rows; with GENGATE_UPDATE_DOCS=1 writes
 * them in first. Returns what the document holds and what the run rendered.
 */
export function checkMatrixSection(section: string, rows: MatrixRow[]): { documented: string | undefined; rendered: string } {
  const rendered = renderMatrixSection(rows);
  let document = readFileSync(DOC_PATH, 'utf8');
  if (process.env.GENGATE_UPDATE_DOCS === '1') {
    const [open, close] = markers(section);
    const block = `${open}\n${rendered}\n${close}`;
    const current = readMatrixSection(document, section);
    document =
      current === undefined
        ? `${document.trimEnd()}\n\n${block}\n`
        : document.slice(0, document.indexOf(open)) + block + document.slice(document.indexOf(close) + close.length);
    writeFileSync(DOC_PATH, document);
  }
  return { documented: readMatrixSection(document, section), rendered };
}
