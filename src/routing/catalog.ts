/**
 * The public model ids the gateway knows, the operation each serves, who makes it and its
 * price. The spec's ids (neutral names) are listed here; upstream names reached through
 * configured channels are served too, but only catalog ids are listed and priced.
 */
import type { Operation } from '../core/operation.js';

export interface CatalogEntry {
  id: string;
  operation: Operation;
  ownedBy: 'anthropic' | 'openai' | 'google' | 'gengate';
  displayName: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  /** USD per million tokens. */
  price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

const CREATED = 1_735_689_600; // 2025-01-01, a fixed listing date

function chatModel(
  id: string,
  ownedBy: CatalogEntry['ownedBy'],
  displayName: string,
  limits: [number, number],
  price: CatalogEntry['price'],
): CatalogEntry {
  return { id, operation: 'chat', ownedBy, displayName, inputTokenLimit: limits[0], outputTokenLimit: limits[1], price };
}

export const SPEC_CATALOG: readonly CatalogEntry[] = [
  chatModel('textmodel-a-haiku-4-5-20251001', 'anthropic', 'Text model A Haiku 4.5', [200_000, 64_000], { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }),
  chatModel('textmodel-a-sonnet-4-20250514', 'anthropic', 'Text model A Sonnet 4', [200_000, 64_000], { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }),
  chatModel('textmodel-a-opus-4-5-20251101', 'anthropic', 'Text model A Opus 4.5', [200_000, 64_000], { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }),
  chatModel('textmodel-b-4', 'openai', 'Text model B 4', [8_192, 8_192], { input: 30, output: 60 }),
  chatModel('textmodel-b-4-turbo', 'openai', 'Text model B 4 Turbo', [128_000, 4_096], { input: 10, output: 30 }),
  chatModel('textmodel-b-4o', 'openai', 'Text model B 4o', [128_000, 16_384], { input: 2.5, output: 10, cacheRead: 1.25 }),
  chatModel('textmodel-b-4o-mini', 'openai', 'Text model B 4o mini', [128_000, 16_384], { input: 0.15, output: 0.6, cacheRead: 0.075 }),
  chatModel('textmodel-b-3.5-turbo', 'openai', 'Text model B 3.5 Turbo', [16_385, 4_096], { input: 0.5, output: 1.5 }),
  chatModel('textmodel-c-2.0-flash', 'google', 'Text model C 2.0 Flash', [1_048_576, 8_192], { input: 0.1, output: 0.4, cacheRead: 0.025 }),
  chatModel('textmodel-c-2.5-pro', 'google', 'Text model C 2.5 Pro', [1_048_576, 65_536], { input: 1.25, output: 10, cacheRead: 0.31 }),
  chatModel('textmodel-c-2.5-flash', 'google', 'Text model C 2.5 Flash', [1_048_576, 65_536], { input: 0.3, output: 2.5, cacheRead: 0.075 }),
  chatModel('textmodel-c-3-pro-preview', 'google', 'Text model C 3 Pro Preview', [1_048_576, 65_536], { input: 2, output: 12, cacheRead: 0.2 }),
];

export class Catalog {
  private readonly byId = new Map<string, CatalogEntry>();

  constructor(entries: readonly CatalogEntry[] = SPEC_CATALOG) {
    for (const entry of entries) this.byId.set(entry.id, entry);
  }

  get(id: string): CatalogEntry | undefined {
    return this.byId.get(id);
  }

  all(): CatalogEntry[] {
    return [...this.byId.values()];
  }

  listingDate(): number {
    return CREATED;
  }
}
