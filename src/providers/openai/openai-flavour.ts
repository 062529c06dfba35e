/**
 * What sets one OpenAI-dialect upstream apart from another, as data: the adapter reads these
 * fields and never a provider name, so a named preset (DeepSeek, Groq, …) is one more value
 * of this type (`named-presets.ts`), with no code.
 */
import type { EnvPreset, ProviderName } from '../types.js';
import type { StopSequenceRules } from '../shared/check-stop-sequences.js';
import type { OpenAIEndpoint } from './openai-endpoint.js';

/** The operations this adapter implements; a flavour declares those its upstream serves. */
type OpenAIOperation = 'chat' | 'embed' | 'image.generate' | 'image.edit';

export interface OpenAIFlavour {
  /** What channels give as `provider:`; the environment channel is `<name>-env`. */
  readonly name: ProviderName;
  readonly operations: readonly OpenAIOperation[];
  /** Base URL up to and including the version (`…/v1`); absent when each channel must give one. */
  readonly defaultBaseUrl?: string;
  /** The channel made from environment variables alone (key, base URL and rewrite variables, models). */
  readonly envPreset?: EnvPreset;
  /** Where the output-token cap goes: OpenAI deprecated `max_tokens` for `max_completion_tokens`; most others read `max_tokens`. */
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /**
   * The stop-sequence limit the vendor documents (`max`; none when it documents none) and the
   * name users know it by (`upstream`), which every refusal of the flavour names.
   */
  readonly stopRules: StopSequenceRules;
  /**
   * The upstream reads PDF `file` parts. When false, requests carrying one get a 400 unless the
   * channel's option `acceptsDocuments: true` says its server reads them.
   */
  readonly acceptsDocuments: boolean;
  /** The most tools one request may define, when the vendor documents a limit (OpenAI: 128). */
  readonly maxTools?: number;
  /**
   * The upstream serves OpenAI's Responses API (`POST <base>/responses`, hosted tools included):
   * Responses requests are then relayed to it untranslated. Only OpenAI itself does; servers
   * that merely speak Chat Completions are reached by translation.
   */
  readonly servesResponses?: boolean;
  /** Where requests go and how they are authenticated, when not `<base><path>` with a bearer key (Azure OpenAI). */
  readonly endpoint?: OpenAIEndpoint;
  /**
   * Top-level chat completions members the vendor's reference says it rejects: dropped from the
   * request (translated or relayed) with a warning rather than sent to fail.
   */
  readonly unsupportedParams?: readonly string[];
}
