/**
 * The public model ids the gateway knows, the operations each serves, who makes it and its
 * price. The spec's ids (neutral names) are listed here; upstream names reached through
 * configured channels are served too, but only catalog ids are listed and priced.
 */
import type { Operation } from '../core/operation.js';

export interface CatalogEntry {
  id: string;
  /** The operations the model serves; the first is the one lists show. */
  operations: Operation[];
  ownedBy: 'anthropic' | 'openai' | 'google' | 'black-forest-labs' | 'ideogram' | 'gengate';
  displayName: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  /** USD per million tokens, and per unit (image, second of video) where billed so. */
  price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number; perUnit?: number };
}

const CREATED = 1_735_689_600; // 2025-01-01, a fixed listing date

type Owner = CatalogEntry['ownedBy'];

function chatModel(id: string, ownedBy: Owner, displayName: string, limits: [number, number], price: CatalogEntry['price']): CatalogEntry {
  return { id, operations: ['chat'], ownedBy, displayName, inputTokenLimit: limits[0], outputTokenLimit: limits[1], price };
}

function embedModel(id: string, ownedBy: Owner, displayName: string, inputLimit: number, pricePerMillion: number): CatalogEntry {
  return { id, operations: ['embed'], ownedBy, displayName, inputTokenLimit: inputLimit, price: { input: pricePerMillion, output: 0 } };
}

function imageModel(id: string, operations: Operation[], ownedBy: Owner, displayName: string, perImage: number): CatalogEntry {
  return { id, operations, ownedBy, displayName, price: { input: 0, output: 0, perUnit: perImage } };
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
  embedModel('text-embedding-004', 'google', 'Text embedding 004', 2_048, 0.1),
  embedModel('gemini-embedding-001', 'google', 'Gemini embedding 001', 2_048, 0.15),
  embedModel('text-embedding-3-small', 'openai', 'Text embedding 3 small', 8_191, 0.02),
  embedModel('text-embedding-3-large', 'openai', 'Text embedding 3 large', 8_191, 0.13),
  imageModel('imagegen1-pro', ['image.generate'], 'black-forest-labs', 'Image generation 1 Pro', 0.05),
  imageModel('imagegen1-dev', ['image.generate'], 'black-forest-labs', 'Image generation 1 Dev', 0.025),
  imageModel('imagegen1-schnell', ['image.generate'], 'black-forest-labs', 'Image generation 1 Schnell', 0.003),
  imageModel('imagegen1-1.1-pro', ['image.generate'], 'black-forest-labs', 'Image generation 1 1.1 Pro', 0.04),
  imageModel('textmodel-b-image-1', ['image.edit', 'image.generate'], 'openai', 'Text model B Image 1', 0.042),
  imageModel('imagegen2-v3', ['image.remix', 'image.edit', 'image.blend', 'image.generate'], 'ideogram', 'Image generation 2 v3', 0.06),
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

  /** The catalog ids that serve an operation. */
  servingOperation(operation: Operation): string[] {
    return this.all()
      .filter((entry) => entry.operations.includes(operation))
      .map((entry) => entry.id);
  }

  listingDate(): number {
    return CREATED;
  }
}
