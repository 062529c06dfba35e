/**
 * What a pass-through stream's readers found: usage, the text produced so far, and (to bill a
 * stream cut short) the relayed chunks, decoded again only if it is cut.
 */
import type { TapResult } from '../../core/passthrough.js';
import { SseDecoder, type SseEvent } from '../../core/sse.js';
import { PRODUCED_TEXT_LIMIT, TextCollector } from '../../core/text-collector.js';
import { mergeUsage, type Usage } from '../../core/usage.js';

/** What a reader reports while looking at an event. */
export interface TapFindings {
  usage(found: Partial<Usage>): void;
  text(produced: string): void;
}

/** The assistant text an event carried (`SseTapOptions.producedTextOf`). */
export type ProducedTextOf = (event: SseEvent, emit: (text: string) => void) => void;

/** Relayed bytes kept for reading the produced text of a cut stream. */
const KEPT_BYTES_LIMIT = 4 * PRODUCED_TEXT_LIMIT;

export class SseFindings implements TapFindings {
  private readonly totals: Usage = { inputTokens: 0, outputTokens: 0 };
  private seenUsage = false;
  private readonly produced = new TextCollector(PRODUCED_TEXT_LIMIT);
  /** The chunks as relayed (references, no copies). */
  private readonly kept: Buffer[] = [];
  private keptSize = 0;

  constructor(private readonly producedTextOf: ProducedTextOf | undefined) {}

  usage(found: Partial<Usage>): void {
    this.seenUsage = true;
    mergeUsage(this.totals, found);
  }

  // A property, not a method: it is handed to `producedTextOf` as its `emit`.
  readonly text = (produced: string): void => {
    this.produced.add(produced);
  };

  /** Keeps relayed bytes (bounded) when the produced text may have to be read from them. */
  keep(bytes: Buffer): void {
    if (!this.producedTextOf || this.keptSize >= KEPT_BYTES_LIMIT) return;
    this.kept.push(bytes);
    this.keptSize += bytes.length;
  }

  /** What was read; for a stream cut short, the produced text is read from the kept chunks first. */
  result(completed: boolean): TapResult {
    if (!completed && this.producedTextOf) {
      const decoder = new SseDecoder();
      for (const chunk of this.kept) for (const event of decoder.push(chunk)) this.producedTextOf(event, this.text);
    }
    this.kept.length = 0;
    const tapped: TapResult = { completed, producedText: this.produced.text() };
    if (this.seenUsage) tapped.usage = this.totals;
    return tapped;
  }
}
