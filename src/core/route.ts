/** Which channel answered a call; surfaces put it in response headers, the ledger records it. */
export interface RouteInfo {
  channel: string;
  /** The provider kind of the channel (`openai`, `anthropic`, `sandbox`, …). */
  provider: string;
  /** True when the sandbox answered: the answer is simulated. */
  simulated: boolean;
  upstreamModel: string;
  attempts: number;
  /** True when the upstream's bytes are relayed untranslated (same dialect on both sides). */
  passthrough: boolean;
  /** Settings of the request the translation dropped or approximated (`x-gengate-warnings`). */
  warnings?: string[];
}
