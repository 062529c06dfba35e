/** OpenAI Images API wire shapes (`/v1/images/generations`, `/v1/images/edits`), shared by its surface and provider. */

export interface OpenAIImageData {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

interface OpenAIImagesUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_tokens_details?: { text_tokens?: number; image_tokens?: number };
}

export interface OpenAIImagesResponse {
  created: number;
  data: OpenAIImageData[];
  usage?: OpenAIImagesUsage;
  background?: string;
  output_format?: string;
  quality?: string;
  size?: string;
}

/**
 * Request fields carried in the canonical request's `options` (camelCase there) and their
 * wire names. `inputFidelity` exists on edits only.
 */
export const OPENAI_IMAGE_OPTION_FIELDS = {
  quality: 'quality',
  style: 'style',
  outputFormat: 'output_format',
  outputCompression: 'output_compression',
  background: 'background',
  moderation: 'moderation',
  inputFidelity: 'input_fidelity',
  user: 'user',
} as const;

export type OpenAIImageOption = keyof typeof OPENAI_IMAGE_OPTION_FIELDS;
