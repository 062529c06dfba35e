import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { applyModelOverrides, readModelCatalog, readModelCatalogDir, SHIPPED_CATALOG_PATH, shippedModelCatalog } from './load-model-catalog.js';
import type { CatalogEntry } from './types.js';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gengate-catalog-')), name);
  writeFileSync(path, text);
  return path;
}

const base: CatalogEntry[] = [
  { id: 'm-chat', operations: ['chat'], ownedBy: 'openai', displayName: 'M chat', inputTokenLimit: 1000, price: { input: 1, output: 2, cacheRead: 0.5 } },
];

describe('the shipped catalog file', () => {
  it('sits at the package root, where src/ and dist/ both find it', () => {
    expect(SHIPPED_CATALOG_PATH).toBe(join(process.cwd(), 'catalog', 'models.yaml'));
    expect(shippedModelCatalog().models.length).toBeGreaterThan(20);
  });
});

describe('readModelCatalogDir', () => {
  function folder(files: Record<string, string>): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'gengate-catalog-')), 'catalog');
    mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }

  it('adds the models of every other yaml file, in name order, with the root listing date', () => {
    const dir = folder({
      'models.yaml': 'listingDate: 1700000000\nmodels:\n  - { id: a, operations: [chat] }\n',
      'z-vendors.yaml': 'models:\n  - { id: z, operations: [chat] }\n',
      'clouds.yaml': 'models:\n  - { id: c, operations: [embed] }\n',
      'notes.txt': 'not a catalog',
    });
    const catalog = readModelCatalogDir(dir);
    expect(catalog.listingDate).toBe(1_700_000_000);
    expect(catalog.models.map((model) => model.id)).toEqual(['a', 'c', 'z']);
  });

  it('refuses an id listed in two files, naming both', () => {
    const dir = folder({
      'models.yaml': 'listingDate: 1700000000\nmodels:\n  - { id: a, operations: [chat] }\n',
      'clouds.yaml': 'models:\n  - { id: a, operations: [chat] }\n',
    });
    expect(() => readModelCatalogDir(dir)).toThrow(/clouds\.yaml: a is already listed in models\.yaml/);
  });
});

describe('readModelCatalog', () => {
  it('reads a valid file, defaulting owner, display name and the missing token prices', () => {
    const path = file('models.yaml', 'listingDate: 1700000000\nmodels:\n  - { id: pic, operations: [image.generate], price: { perUnit: 0.01 } }\n');
    expect(readModelCatalog(path)).toEqual({
      listingDate: 1_700_000_000,
      models: [{ id: 'pic', operations: ['image.generate'], ownedBy: 'gengate', displayName: 'pic', price: { input: 0, output: 0, perUnit: 0.01 } }],
    });
  });

  it('refuses a malformed entry, naming it and the field', () => {
    const catalog = (models: string) => file('models.yaml', `listingDate: 1700000000\nmodels:\n${models}`);
    const cases: Array<[string, RegExp]> = [
      [
        '  - { id: ok, operations: [chat] }\n  - { id: bad-price, operations: [chat], price: { input: "cheap" } }\n',
        /models\[1\] \(bad-price\)\.price\.input must be a number/,
      ],
      [
        '  - { id: fine-price, operations: [chat], price: { input: 0.0000001, output: 1 } }\n',
        /models\[0\] \(fine-price\)\.price\.input has more than 6 decimal places/,
      ],
      [
        '  - { id: fine-unit, operations: [image.generate], price: { perUnit: 0.0000000001 } }\n',
        /models\[0\] \(fine-unit\)\.price\.perUnit has more than 9 decimal places/,
      ],
      ['  - { id: bad-op, operations: [chat, dance] }\n', /models\[0\] \(bad-op\)\.operations: unknown operation "dance"/],
      ['  - { id: no-op }\n', /models\[0\] \(no-op\): a new model needs operations/],
      ['  - { id: typo, operations: [chat], inputPrice: 3 }\n', /models\[0\] \(typo\): unknown field "inputPrice"/],
      ['  - { id: lim, operations: [chat], inputTokenLimit: -5 }\n', /models\[0\] \(lim\)\.inputTokenLimit must be a positive integer/],
      ['  - { operations: [chat] }\n', /models\[0\]\.id must be a model id/],
      ['  - { id: twice, operations: [chat] }\n  - { id: twice, operations: [embed] }\n', /models\[1\] \(twice\): this id is listed twice/],
      ['  - just-a-string\n', /models\[0\] must be a mapping/],
    ];
    for (const [models, message] of cases) {
      const path = catalog(models);
      expect(() => readModelCatalog(path)).toThrow(ConfigError);
      expect(() => readModelCatalog(path)).toThrow(message);
    }
  });

  it('refuses a file that is not a catalog', () => {
    expect(() => readModelCatalog(file('a.yaml', 'models: []\n'))).toThrow(/listingDate must be Unix seconds/);
    expect(() => readModelCatalog(file('b.yaml', 'listingDate: 1\nmodels: {}\n'))).toThrow(/models must be a list/);
    expect(() => readModelCatalog(file('c.yaml', 'listingDate: [\n'))).toThrow(/model catalog .*c\.yaml/);
    expect(() => readModelCatalog('/nonexistent/models.yaml')).toThrow(ConfigError);
  });
});

describe('applyModelOverrides', () => {
  it('replaces the given fields of a model with the same id, price fields one by one', () => {
    const [model] = applyModelOverrides(base, [{ id: 'm-chat', price: { output: 3 }, displayName: 'Renamed' }]);
    expect(model).toEqual({ ...base[0], displayName: 'Renamed', price: { input: 1, output: 3, cacheRead: 0.5 } });
    expect(base[0].price!.output).toBe(2);
  });

  it('adds a model with a new id, and needs its operations', () => {
    const models = applyModelOverrides(base, [{ id: 'm-embed', operations: ['embed'], ownedBy: 'acme' }]);
    expect(models.map((m) => m.id)).toEqual(['m-chat', 'm-embed']);
    expect(models[1]).toEqual({ id: 'm-embed', operations: ['embed'], ownedBy: 'acme', displayName: 'm-embed' });
    expect(() => applyModelOverrides(base, [{ id: 'ok', operations: ['chat'] }, { id: 'm-new' }])).toThrow(
      /models\[1\] \(m-new\): a new model needs operations/,
    );
  });
});

describe('models: in gengate.yaml', () => {
  it('is read into the configuration', () => {
    const path = file('gengate.yaml', 'models:\n  - id: textmodel-b-4o\n    price: { input: 2 }\n  - id: house-model\n    operations: [chat]\n');
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path }).models).toEqual([
      { id: 'textmodel-b-4o', price: { input: 2 } },
      { id: 'house-model', operations: ['chat'] },
    ]);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).models).toEqual([]);
  });

  it('a bad entry is refused when the configuration loads, naming it', () => {
    const path = file('gengate.yaml', 'models:\n  - id: textmodel-b-4o\n    price: { input: -1 }\n');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path })).toThrow(
      /models\[0\] \(textmodel-b-4o\)\.price\.input must be a number ≥ 0/,
    );
    const added = file('gengate.yaml', 'models:\n  - id: brand-new\n    displayName: New\n');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: added })).toThrow(
      /models\[0\] \(brand-new\): a new model needs operations/,
    );
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: file('gengate.yaml', 'models: {a: 1}\n') })).toThrow(
      /models must be a list/,
    );
  });
});
