/**
 * Token-array inputs → text, with cl100k_base, the encoding of OpenAI's embedding models (so
 * clients that pre-tokenise, such as LangChain, work against any upstream). The encoding's
 * tables are loaded on first use only: most requests send text.
 */
import { invalidRequest } from '../../core/errors.js';
import type { EmbeddingInput } from './parse-embeddings-request.js';

type Decode = (tokens: number[]) => string;
let decoder: Promise<Decode> | undefined;

function loadDecoder(): Promise<Decode> {
  decoder ??= import('gpt-tokenizer/encoding/cl100k_base').then((encoding) => (tokens: number[]) => encoding.decode(tokens));
  return decoder;
}

export async function decodeTokenInputs(inputs: readonly EmbeddingInput[]): Promise<string[]> {
  if (inputs.every((input) => typeof input === 'string')) return inputs as string[];
  const decode = await loadDecoder();
  const single = inputs.length === 1;
  return inputs.map((input, i) => {
    if (typeof input === 'string') return input;
    const param = single ? 'input' : `input[${i}]`;
    try {
      return decode(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw invalidRequest(`${param}: not a valid cl100k_base token array (${reason})`, param);
    }
  });
}
