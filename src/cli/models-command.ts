/**
 * `gengate models import FILE [--apply]`: reads a published model-price file (LiteLLM's
 * `model_prices_and_context_window.json` shape), prints what it would change in the catalog in
 * force (shipped, gengate.yaml's `models:`, the stored overrides), and with `--apply` stores the
 * changes as model overrides — the admin API's, in force in running gateways at their next catalog
 * reload — with the file as each price's source and date, and one audit entry per model changed.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { MAX_PRICE_FILE_BYTES, parsePriceFile } from '../config/litellm-price-file.js';
import { mergeOverride, priceFileChanges } from '../config/price-file-changes.js';
import { parseModelOverride } from '../config/parse-model-entry.js';
import type { GatewayConfig, PriceSource } from '../config/types.js';
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
} as const;

export async function modelsCommand(args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'import') throw new UsageError(sub === undefined ? '"gengate models" needs a subcommand: import' : `unknown subcommand "models ${sub}"`);
  const { values, positionals } = parseCommandLine('models import', rest, OPTIONS, { min: 1, max: 1, names: 'a price file' });
  const path = positionals[0];
  const source: PriceSource = {
    url: values.source ?? `LiteLLM model_prices_and_context_window.json (${basename(path)})`,
    date: values.date ?? new Date().toISOString().slice(0, 10),
  };
  // The source is checked as a model entry's would be (length, date form) before anything is read.
  try {
    parseModelOverride({ id: 'x', priceSource: source }, '--source/--date');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const file = parsePriceFile(readBounded(path), path);
  const config = loadConfig(values.config);
  const store = await openStore(config.databaseUrl);
  const notifier = values.apply ? changeNotifier(config, store) : undefined;
  try {
    const overrides = new ModelOverridesRepository(store.db);
    const stored = new Map((await overrides.list()).map((row) => [row.override.id, row.override]));
    const changes = priceFileChanges(catalogEntries(config.models, [...stored.values()]), file, source);
    if (changes.length === 0) {
      console.log(`${path}: no change to the catalog (${file.entries.size} entries read)`);
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
    const audit = cliAudit(new AuditRepository(store.db));
    for (const change of changes) {
      const { id: _id, ...definition } = mergeOverride(stored.get(change.id), change.override);
      await overrides.put(parseModelOverride({ ...definition, id: change.id }, `stored override of ${change.id}`), Date.now());
      await audit('model.import', change.id, { source, changes: change.lines });
    }
    await notifier?.send('catalog');
    console.log(`${changes.length} model${changes.length === 1 ? '' : 's'} changed; running gateways reload the catalog`);
  } finally {
    await notifier?.close();
    await store.close();
  }
}

/** The file's text, refused before reading when it is far larger than a price file. */
function readBounded(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > MAX_PRICE_FILE_BYTES) throw new ConfigError(`${path}: larger than ${MAX_PRICE_FILE_BYTES} bytes: not a price file`);
  return readFileSync(path, 'utf8');
}
