/**
 * The Responses API's conversation state as the gateway keeps it: each response's input and
 * output items in OpenAI's wire shape, owned by an account, so that `previous_response_id`
 * continues a conversation on any model and any replica. Reasoning a vendor signed travels in
 * `reasoning` items whose `encrypted_content` the gateway seals (`SealedReasoning`).
 */

/** One Responses API item (`message`, `function_call`, `function_call_output`, `reasoning`, …) as JSON. */
export type ResponseItem = { type: string; id?: string } & Record<string, unknown>;

export type StoredResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';

export interface StoredResponse {
  /** `resp_…`, issued by the gateway whatever the upstream. */
  id: string;
  /** The owner: another account's lookup of this id is unknown (404). */
  accountId: string;
  /** The public model id the client asked for. */
  model: string;
  /** Unix seconds. */
  createdAt: number;
  status: StoredResponseStatus;
  previousResponseId?: string;
  /** This turn's input items only (the history before it stays with earlier responses), with ids. */
  inputItems: ResponseItem[];
  /** The output items in full: reasoning items keep their sealed `encrypted_content`. */
  outputItems: ResponseItem[];
  /** The response object as the gateway rendered it in full, for `GET /v1/responses/{id}`. */
  object: Record<string, unknown>;
  /** Unix seconds after which the response is gone (the retention setting). */
  expiresAt: number;
}

/**
 * What the gateway seals into a reasoning item's `encrypted_content`: the vendor's own proof
 * (Anthropic thinking signature or redacted thinking, Gemini thoughtSignature, OpenAI encrypted
 * reasoning), with the provider kind that issued it, so a turn continued on another vendor drops
 * what that vendor cannot take instead of failing.
 */
export interface SealedReasoning {
  /** The provider kind that produced it (`anthropic`, `gemini`, `openai`, `sandbox`, …). */
  provider: string;
  signature?: string;
  /**
   * The reasoning text the signature covers (Anthropic verifies it on replay), kept sealed when
   * the client sees no summary of it.
   */
  text?: string;
  /** Anthropic `redacted_thinking` data. */
  redacted?: string;
  /** OpenAI's own `encrypted_content`. */
  encrypted?: string;
  /**
   * The upstream's own id of the item (OpenAI's `rs_…`): a relayed Responses request sends the
   * reasoning back under it, since OpenAI requires a reasoning item's id and never saw the gateway's.
   */
  itemId?: string;
}
