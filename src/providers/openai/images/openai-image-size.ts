/** The `size` field sent upstream: the requested size, or the GPT image size nearest an aspect ratio. */
import type { ImageSize } from '../../../core/image.js';

function ratioOf(aspectRatio: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:x]\s*(\d+(?:\.\d+)?)\s*$/i.exec(aspectRatio);
  if (!match) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

export function openAIImageSize(request: { size?: ImageSize; aspectRatio?: string }): string | undefined {
  if (request.size) return `${request.size.width}x${request.size.height}`;
  const ratio = request.aspectRatio ? ratioOf(request.aspectRatio) : undefined;
  if (ratio === undefined) return undefined;
  // GPT image models offer square, landscape 3:2 and portrait 2:3.
  if (ratio > 1.2) return '1536x1024';
  if (ratio < 1 / 1.2) return '1024x1536';
  return '1024x1024';
}

/** DALL·E models take `response_format`; GPT image models refuse it (they always answer base64). */
export function takesResponseFormat(upstreamModel: string): boolean {
  return upstreamModel.startsWith('dall-e');
}
