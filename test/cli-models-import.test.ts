/**
 * `gengate models import`: a dry run shows what a LiteLLM price file changes and stores nothing;
 * `--apply` stores the changes as model overrides with the file as their source and date, one
 * audit entry per model; a malformed file is one clear line and changes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogEntries } from '../src/gateway/live-catalog.js';
import { AuditRepository } from '../src/store/audit-repository.js';
import { ModelOverridesRepository } from '../src/store/model-overrides-repository.js';
import { openStore } from '../src/store/open-store.js';
import { type CliRun, runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
const FIXTURE = 'test/fixtures/litellm-model-prices.json';

function gengate(args: string[]): Promise<CliRun> {
  return runCli(databaseUrl, args);
}

async function storedOverrides() {
  const store = await openStore(databaseUrl);
  try {
    return (await new ModelOverridesRepository(store.db).list()).map((row) => row.override);
  } finally {
    await store.close();
  }
}

describe('gengate models import', () => {
  it('shows the changes without --apply, stores them with their source and an audit entry each with it', async () => {
    const dry = await gengate(['models', 'import', FIXTURE]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('gpt-4o-mini:\n  price.input 0.15 → 0.16\n  price.output 0.6 → 0.64');
    expect(dry.stdout).toContain('sora-2:\n  price.perUnit 0.1 → 0.12');
    expect(dry.stdout).toMatch(/3 models would change; run again with --apply/);
    expect(await storedOverrides()).toEqual([]);

    const applied = await gengate(['models', 'import', FIXTURE, '--apply', '--source', 'LiteLLM prices, commit abc123', '--date', '2026-11-20']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/3 models changed/);
    const stored = await storedOverrides();
    const mini = stored.find((override) => override.id === 'gpt-4o-mini');
    expect(mini).toEqual({
      id: 'gpt-4o-mini',
      price: { input: 0.16, output: 0.64 },
      priceSource: { url: 'LiteLLM prices, commit abc123', date: '2026-11-20' },
    });
    // The catalog a gateway builds from the store now has the imported price, the rest of the entry kept.
    const entry = catalogEntries([], stored).find((model) => model.id === 'gpt-4o-mini');
    expect(entry?.price).toMatchObject({ input: 0.16, output: 0.64, cacheRead: 0.075 });
    expect(entry?.priceSource?.date).toBe('2026-11-20');

    const store = await openStore(databaseUrl);
    const imports = await new AuditRepository(store.db).list({ action: 'model.import' }, 50);
    await store.close();
    expect(imports.map((audit) => audit.target).sort()).toEqual(['gemini-2.0-flash', 'gpt-4o-mini', 'sora-2']);
    expect(imports.every((audit) => audit.actor_kind === 'cli')).toBe(true);

    // Imported again, the same file changes nothing.
    const again = await gengate(['models', 'import', FIXTURE]);
    expect(again.stdout).toMatch(/no change to the catalog/);
    // Three CLI starts: each takes seconds on a loaded 2-core host.
  }, 120_000);

  it('refuses a malformed file in one line, changing nothing', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"gpt-5": {"input_cost_per_token": "cheap", "mode": "chat"}}');
    const refused = await gengate(['models', 'import', bad, '--apply']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim()).toMatch(/^gengate: entry "gpt-5"\.input_cost_per_token must be a cost per token in USD/);
    const missing = await gengate(['models', 'import', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.json: ENOENT/);
  }, 120_000);
});
