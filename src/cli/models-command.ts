/**
 * `gengate models import FILE [--apply]`: reads a published model-price file (LiteLLM's
 * `model_prices_and_context_window.json` shape, or models.dev's `api.json`: `--format`, else told
 * by its shape), prints what it would change in the catalog in force (shipped, gengate.yaml's
 * `models:`, the stored overrides), and with `--apply` stores the
 * changes as model overrides — the admin API's, in force in running gateways at their next catalog
 * reload — with the file as each price's source and date, and one audit entry per model changed.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { MAX_PRICE_FILE_BYTES, type PriceFile, parsePriceDocument, priceFileOf } from '../config/litellm-price-file.js';
import { type ModelsDevFile, modelsDevChanges, modelsDevFileOf, modelsDevSource } from '../config/models-dev-file.js';
import { parseModelOverride } from '../config/parse-model-entry.js';
import { detectPriceFileFormat, PRICE_FILE_FORMATS, type PriceFileFormat } from '../config/price-file-format.js';
import { type ModelChange, mergeOverride, priceFileChanges } from '../config/price-file-changes.js';
import type { CatalogEntry, GatewayConfig, ModelOverride, PriceSource } from '../config/types.js';
import { catalogEntries } from '../gateway/live-catalog.js';
import { AuditRepository } from '../store/audit-repository.js';
import { ModelOverridesRepository } from '../store/model-overrides-repository.js';
import { changeNotifier } from '../store/open-change-notifier.js';
import { openStore } from '../store/open-store.js';
import { cliAudit } from './cli-audit.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

const OPTIONS = {
  ...CONFIG_OPTION,
  apply: { type: 'boolean' },
  source: { type: 'string' },
  date: { type: 'string' },
  format: { type: 'string' },
  provider: { type: 'string' },
} as const;
/** Warnings and notes listed one by one; more are counted. */
const MAX_LISTED = 20;

interface ReadChanges {
  changes: ModelChange[];
  warnings: string[];
  notes: string[];
  /** What was read, for the "no change" line. */
  read: string;
}

export async function modelsCommand(args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'import') throw new UsageError(sub === undefined ? '"gengate models" needs a subcommand: import' : `unknown subcommand "models ${sub}"`);
  const { values, positionals } = parseCommandLine('models import', rest, OPTIONS, { min: 1, max: 1, names: 'a price file' });
  const path = positionals[0];
  const format = values.format;
  if (format !== undefined && !(PRICE_FILE_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be ${PRICE_FILE_FORMATS.join(' or ')}, not "${format}"`);
  // The source is checked as a model entry's would be (length, date form) before anything is read.
  try {
    parseModelOverride({ id: 'x', priceSource: { url: values.source ?? 'x', date: values.date ?? '2000-01-01' } }, '--source/--date');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const { text, modified } = readBounded(path);
  const document = parsePriceDocument(text, path, "one entry per model id (LiteLLM's shape) or per provider (models.dev's api.json)");
  const chosen = (format as PriceFileFormat | undefined) ?? detectPriceFileFormat(document, path);
  if (values.provider !== undefined && chosen !== 'models.dev') throw new UsageError('--provider is for a models.dev file');
  // The file is read whole before the store is opened: a file refused opens nothing.
  const read =
    chosen === 'litellm' ? liteLlmReader(priceFileOf(document, path), path, values) : modelsDevReader(modelsDevFileOf(document, path), modified, values);

  const config = loadConfig(values.config);
  const store = await openStore(config.databaseUrl);
  const notifier = values.apply ? changeNotifier(config, store) : undefined;
  try {
    const overrides = new ModelOverridesRepository(store.db);
    const stored = new Map((await overrides.list()).map((row) => [row.override.id, row.override]));
    const { changes, warnings, notes, read: what } = read(catalogEntries(config.models, [...stored.values()]));
    listBounded(warnings, (line) => console.warn(`gengate: warning: ${line}`), 'warnings');
    if (warnings.length > 0) console.warn(`gengate: ${warnings.length} malformed entr${warnings.length === 1 ? 'y' : 'ies'} skipped`);
    listBounded(notes, (line) => console.log(`note: ${line}`), 'notes');
    if (changes.length === 0) {
      console.log(`${path}: no change to the catalog (${what})`);
      return;
    }
    for (const change of changes) {
      console.log(`${change.id}${change.key === change.id ? '' : ` (${change.key})`}:`);
      for (const line of change.lines) console.log(`  ${line}`);
    }
    if (!values.apply) {
      console.log(`${changes.length} model${changes.length === 1 ? '' : 's'} would change; run again with --apply to store the changes`);
      return;
    }
    // Every override is checked before the first is stored: a refused one changes nothing.
    const checked: Array<{ change: ModelChange; override: ModelOverride }> = changes.map((change) => {
      const { id: _id, ...definition } = mergeOverride(stored.get(change.id), change.override);
      return { change, override: parseModelOverride({ ...definition, id: change.id }, `stored override of ${change.id}`) };
    });
    const audit = cliAudit(new AuditRepository(store.db));
    for (const { change, override } of checked) {
      await overrides.put(override, Date.now());
      await audit('model.import', change.id, { source: change.source, format: chosen, entry: change.key, changes: change.lines });
    }
    await notifier?.send('catalog');
    console.log(`${changes.length} model${changes.length === 1 ? '' : 's'} changed; running gateways reload the catalog`);
  } finally {
    await notifier?.close();
    await store.close();
  }
}

function liteLlmReader(file: PriceFile, path: string, values: { source?: string; date?: string }): (models: readonly CatalogEntry[]) => ReadChanges {
  const source: PriceSource = {
    url: values.source ?? `LiteLLM model_prices_and_context_window.json (${basename(path)})`,
    date: values.date ?? new Date().toISOString().slice(0, 10),
  };
  return (models) => ({ changes: priceFileChanges(models, file, source), warnings: [], notes: [], read: `${file.entries.size} entries read` });
}

function modelsDevReader(
  file: ModelsDevFile,
  modified: string,
  values: { source?: string; date?: string; provider?: string },
): (models: readonly CatalogEntry[]) => ReadChanges {
  // Default date: the day the file was written (downloaded), when its prices were read.
  const date = values.date ?? modified;
  const source = (provider: string, key: string): PriceSource =>
    values.source === undefined ? modelsDevSource(provider, key, date) : { url: values.source, date };
  return (models) => ({
    ...modelsDevChanges(models, file, { provider: values.provider, source }),
    read: `models.dev file of ${file.providers.size} providers read`,
  });
}

function listBounded(lines: readonly string[], print: (line: string) => void, what: string): void {
  for (const line of lines.slice(0, MAX_LISTED)) print(line);
  if (lines.length > MAX_LISTED) print(`… and ${lines.length - MAX_LISTED} more ${what}`);
}

/** The file's text and the day it was last written, refused before reading when it is far larger than a price file. */
function readBounded(path: string): { text: string; modified: string } {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (stats.size > MAX_PRICE_FILE_BYTES) throw new ConfigError(`${path}: larger than ${MAX_PRICE_FILE_BYTES} bytes: not a price file`);
  return { text: readFileSync(path, 'utf8'), modified: stats.mtime.toISOString().slice(0, 10) };
}
