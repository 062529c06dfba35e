/**
 * Label values that can only come from configuration (the catalog, the channel list, the
 * provider registry), never from what a client sends: anything not known folds into `other`,
 * and each label takes at most `cap` distinct values in a process's life.
 */
export const OTHER = 'other';

export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(
    private readonly isKnown: (value: string) => boolean,
    private readonly cap: number,
  ) {}

  of(value: string | undefined): string {
    if (value === undefined) return OTHER;
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.cap || !this.isKnown(value)) return OTHER;
    this.seen.add(value);
    return value;
  }
}

/** OpenTelemetry's `gen_ai.operation.name` for a gengate operation (its own name where none fits). */
export function genAiOperationName(operation: string): string {
  if (operation === 'chat') return 'chat';
  if (operation === 'embed') return 'embeddings';
  if (operation.startsWith('image.') || operation === 'video.generate') return 'generate_content';
  return operation;
}

/** OpenTelemetry's `gen_ai.provider.name` for a provider of gengate (its own name where none is defined). */
export function genAiProviderName(provider: string): string {
  if (provider === 'gemini') return 'gcp.gemini';
  return provider;
}
