/**
 * `gengate models import` of models.dev's api.json: the format told by its shape, each model read
 * from its vendor's provider (or `--provider`'s), malformed entries skipped with a warning each;
 * `--apply` stores the changes with the api.json entry and the file's date as the price source,
 * one audit entry per model.
 */
import { copyFileSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditRepository } from '../src/store/audit-repository.js';
import { ModelOverridesRepository } from '../src/store/model-overrides-repository.js';
import { openStore } from '../src/store/open-store.js';
import { type CliRun, runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-models-dev-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
// Each step starts the CLI (a second or more): the steps of a test share one budget.
// A copy written on a known day: that day is the prices' date.
const FILE = join(dir, 'api.json');
copyFileSync('test/fixtures/models-dev-api.json', FILE);
utimesSync(FILE, new Date('2026-11-20T12:00:00Z'), new Date('2026-11-20T12:00:00Z'));

function gengate(args: string[]): Promise<CliRun> {
  return runCli(databaseUrl, args);
}

async function stored() {
  const store = await openStore(databaseUrl);
  try {
    const overrides = (await new ModelOverridesRepository(store.db).list()).map((row) => row.override);
    const audits = await new AuditRepository(store.db).list({ action: 'model.import' }, 50);
    return { overrides, audits };
  } finally {
    await store.close();
  }
}

describe('gengate models import of a models.dev file', () => {
  it("reads each model from its vendor's entry, warns of malformed ones, and stores the changes with their source", async () => {
    const dry = await gengate(['models', 'import', FILE]);
    expect(dry.code, dry.stderr).toBe(0);
    // openai's entry (0.16), not azure's (0.15). (The fixture's gpt-5-pro output limit is raised to 280000 to have a limit change.)
    expect(dry.stdout).toContain('gpt-4o-mini (openai/gpt-4o-mini):\n  price.input 0.15 → 0.16\n  price.output 0.6 → 0.64\n');
    expect(dry.stdout).toContain('gpt-5-pro (openai/gpt-5-pro):\n  outputTokenLimit 272000 → 280000\n');
    expect(dry.stdout).toContain('note: claude-sonnet-4-5: "anthropic/claude-sonnet-4-5"\'s input limit 200000 is at or below its price tier above 200000');
    expect(dry.stdout).not.toContain('claude-sonnet-4-5 (anthropic');
    expect(dry.stdout).toContain('note: gpt-4.1-nano: not listed by its vendor\'s provider "openai", only by azure');
    expect(dry.stdout).toMatch(/2 models would change; run again with --apply/);
    expect(dry.stderr).toContain('gengate: warning: "openai/o3".cost.input must be a price in USD per million tokens');
    expect(dry.stderr).toContain('model "azure/not-a-model" is not an object: skipped');
    expect(dry.stderr).toContain('gengate: 2 malformed entries skipped');
    expect((await stored()).overrides).toEqual([]);

    const applied = await gengate(['models', 'import', FILE, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/2 models changed/);
    const { overrides, audits } = await stored();
    expect(overrides).toEqual([
      { id: 'gpt-4o-mini', price: { input: 0.16, output: 0.64 }, priceSource: { url: 'https://models.dev/api.json#openai/gpt-4o-mini', date: '2026-11-20' } },
      { id: 'gpt-5-pro', outputTokenLimit: 280_000 },
    ]);
    expect(audits.map((audit) => audit.target).sort()).toEqual(['gpt-4o-mini', 'gpt-5-pro']);
    expect(audits.every((audit) => audit.actor_kind === 'cli')).toBe(true);
    const mini = audits.find((audit) => audit.target === 'gpt-4o-mini');
    expect(JSON.parse(String(mini?.details))).toEqual({
      source: { url: 'https://models.dev/api.json#openai/gpt-4o-mini', date: '2026-11-20' },
      format: 'models.dev',
      entry: 'openai/gpt-4o-mini',
      changes: ['price.input 0.15 → 0.16', 'price.output 0.6 → 0.64'],
    });

    const again = await gengate(['models', 'import', FILE]);
    expect(again.stdout).toMatch(/no change to the catalog \(models.dev file of 3 providers read\)/);
  }, 120_000);

  it("reads --provider's entries instead, and refuses options that do not fit the file", async () => {
    const azure = await gengate([
      'models',
      'import',
      FILE,
      '--format',
      'models.dev',
      '--provider',
      'azure',
      '--source',
      'models.dev, azure',
      '--date',
      '2026-11-21',
    ]);
    expect(azure.code, azure.stderr).toBe(0);
    expect(azure.stdout).toContain('gpt-4o-mini (azure/gpt-4o-mini):\n  price.input 0.16 → 0.15\n  price.output 0.64 → 0.6\n');
    expect(azure.stdout).not.toContain('claude-sonnet-4-5');

    const format = await gengate(['models', 'import', FILE, '--format', 'yaml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format must be litellm or models.dev, not "yaml"/);
    const provider = await gengate(['models', 'import', 'test/fixtures/litellm-model-prices.json', '--provider', 'azure']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(/--provider is for a models.dev file/);
    const wrong = await gengate(['models', 'import', 'test/fixtures/litellm-model-prices.json', '--format', 'models.dev']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/no provider with a "models" object: not models.dev's api.json/);
  }, 120_000);
});
