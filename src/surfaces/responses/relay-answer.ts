/**
 * What a relayed Responses answer (OpenAI's own, untranslated) becomes before the client sees it
 * or the gateway stores it: the response id, every item id (and every `item_id` naming one) the
 * gateway's, the same upstream id always becoming the same gateway id; the model the public id;
 * `previous_response_id` and `store` as the client sent them (the upstream got neither); and
 * OpenAI's encrypted reasoning sealed by the gateway, with the item's upstream id, so the next
 * turn can give it back on OpenAI and any other vendor leaves it out. Everything else stays as
 * OpenAI wrote it, `sequence_number` included. The client sees sealed reasoning only when its
 * `include` asks for `reasoning.encrypted_content`; the store keeps it always.
 */
import type { ResponseItem, SealedReasoning } from '../../core/responses.js';
import { withoutEncryptedContent } from './render-response-object.js';
import { newItemIdLike } from './response-item-ids.js';

type Json = Record<string, unknown>;

/** Upstream ids mapped per answer; past this (no real answer comes near) further ids get fresh gateway ids each time. */
const MAX_MAPPED_IDS = 10_000;

export interface RelayContext {
  /** `resp_…`, the gateway's. */
  responseId: string;
  /** The public model id. */
  model: string;
  previousResponseId?: string;
  store: boolean;
  /** The client's `include`. */
  include: readonly string[];
  seal(reasoning: SealedReasoning): string;
}

export class RelayedAnswer {
  private readonly ids = new Map<string, string>();
  /** Upstream encrypted content → its seal, so an item shown twice (`.done`, then the final object) carries one seal. */
  private readonly seals = new Map<string, string>();
  private readonly showSealed: boolean;

  constructor(private readonly context: RelayContext) {
    this.showSealed = context.include.includes('reasoning.encrypted_content');
  }

  /** The gateway id of an upstream item id. */
  itemId(upstreamId: string): string {
    let id = this.ids.get(upstreamId);
    if (id === undefined) {
      id = newItemIdLike(upstreamId);
      if (this.ids.size < MAX_MAPPED_IDS) this.ids.set(upstreamId, id);
    }
    return id;
  }

  /** An output item in full, as stored: the gateway's id, OpenAI's reasoning sealed. */
  item(item: Json): ResponseItem {
    const upstreamId = typeof item.id === 'string' ? item.id : undefined;
    const out: Json = { ...item };
    if (upstreamId !== undefined) out.id = this.itemId(upstreamId);
    if (item.type === 'reasoning' && typeof item.encrypted_content === 'string') out.encrypted_content = this.sealed(item.encrypted_content, upstreamId);
    return out as ResponseItem;
  }

  /** A response object in full, as stored. */
  object(response: Json): { object: Json; outputItems: ResponseItem[] } {
    const outputItems = Array.isArray(response.output) ? response.output.map((item) => (isJson(item) ? this.item(item) : (item as ResponseItem))) : [];
    const object: Json = {
      ...response,
      id: this.context.responseId,
      model: this.context.model,
      output: outputItems,
      previous_response_id: this.context.previousResponseId ?? null,
      store: this.context.store,
    };
    return { object, outputItems };
  }

  /** One stream event in full: the response, item and item id it names rewritten. */
  event(event: Json): Json {
    const out: Json = { ...event };
    if (isJson(event.response)) out.response = this.object(event.response).object;
    if (isJson(event.item)) out.item = this.item(event.item);
    if (typeof event.item_id === 'string') out.item_id = this.itemId(event.item_id);
    return out;
  }

  /** What the client sees of an event or object in full: sealed reasoning only when `include` asks for it. */
  forClient(value: Json): Json {
    if (this.showSealed) return value;
    const out: Json = { ...value };
    if (isJson(value.item)) out.item = hideSealed(value.item as ResponseItem);
    if (Array.isArray(value.output)) out.output = value.output.map((item: ResponseItem) => hideSealed(item));
    if (isJson(value.response)) out.response = this.forClient(value.response);
    return out;
  }

  private sealed(encrypted: string, upstreamId: string | undefined): string {
    let sealed = this.seals.get(encrypted);
    if (sealed === undefined) {
      sealed = this.context.seal({ provider: 'openai', encrypted, ...(upstreamId === undefined ? {} : { itemId: upstreamId }) });
      if (this.seals.size < MAX_MAPPED_IDS) this.seals.set(encrypted, sealed);
    }
    return sealed;
  }
}

function hideSealed(item: ResponseItem): ResponseItem {
  return item?.type === 'reasoning' && item.encrypted_content !== undefined ? withoutEncryptedContent(item) : item;
}

function isJson(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
