/**
 * The canonical `video.generate` request → the body of MiniMax's `POST /v1/video_generation`.
 * MiniMax has no aspect ratio: text-to-video comes out landscape (16:9 at 720P/768P/1080P), so
 * `16:9` is what it makes, another ratio is refused naming `aspectRatio`, and with a first
 * frame the video takes the image's shape (a ratio that the image does not have is warned
 * about). No seed either (warned). Options relayed: MiniMax's own booleans
 * `prompt_optimizer`, `fast_pretreatment`, `aigc_watermark`.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskRequest } from '../../core/task.js';
import { minimaxVideoModel } from './minimax-models.js';
import { toMinimaxFirstFrame } from './to-minimax-first-frame.js';
import { toMinimaxVideoLength } from './minimax-video-length.js';

const MAX_PROMPT_CHARS = 2_000;
const LANDSCAPE = 16 / 9;
const RELAYED_OPTIONS = ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'];

export function toMinimaxVideoRequest(
  request: TaskRequest,
  upstreamModel: string,
  warn: (message: string) => void,
  callbackUrl?: string,
): Record<string, unknown> {
  const model = minimaxVideoModel(upstreamModel);
  const firstFrame = toMinimaxFirstFrame(request);
  const prompt = request.prompt ?? '';
  if (prompt.length > MAX_PROMPT_CHARS) throw invalid('prompt', `MiniMax takes a prompt of at most ${MAX_PROMPT_CHARS} characters.`);
  if (model?.firstFrame === 'required' && !firstFrame) throw invalid('images', `MiniMax ${upstreamModel} makes a video from a first-frame image; give one.`);
  if (model?.firstFrame === 'refused' && firstFrame) throw invalid('images', `MiniMax ${upstreamModel} makes videos from text only; leave the image out.`);
  if (!firstFrame && prompt.trim() === '') throw invalid('prompt', 'Describe the video in the prompt (or give a first-frame image).');
  checkAspectRatio(request, upstreamModel, warn);
  if (request.seed !== undefined) warn('seed: not supported by MiniMax');

  const { duration, resolution } = toMinimaxVideoLength(request, upstreamModel, model, firstFrame !== undefined, warn);
  const body: Record<string, unknown> = { model: upstreamModel };
  if (prompt !== '') body.prompt = prompt;
  if (duration !== undefined) body.duration = duration;
  if (resolution !== undefined) body.resolution = resolution;
  if (firstFrame !== undefined) body.first_frame_image = firstFrame;
  for (const name of RELAYED_OPTIONS) {
    if (typeof request.options?.[name] === 'boolean') body[name] = request.options[name];
  }
  if (callbackUrl) body.callback_url = callbackUrl;
  return body;
}

function checkAspectRatio(request: TaskRequest, upstreamModel: string, warn: (message: string) => void): void {
  if (request.aspectRatio === undefined) return;
  const asked = parseRatio(request.aspectRatio);
  if (asked === undefined) throw invalid('aspectRatio', `aspectRatio must look like 16:9, got ${JSON.stringify(request.aspectRatio.slice(0, 32))}.`);
  const image = request.images?.[0];
  if (!image) {
    if (!close(asked, LANDSCAPE))
      throw invalid('aspectRatio', `MiniMax ${upstreamModel} makes 16:9 videos from text; use a first-frame image of the shape wanted.`);
    return;
  }
  const shape = image.width && image.height ? image.width / image.height : undefined;
  if (shape === undefined || !close(asked, shape))
    warn(`aspectRatio: MiniMax makes the video in the first frame's shape; ${request.aspectRatio} was not applied`);
}

function parseRatio(text: string): number | undefined {
  const match = /^\s*(\d{1,4})\s*:\s*(\d{1,4})\s*$/.exec(text);
  if (!match) return undefined;
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width > 0 && height > 0 ? width / height : undefined;
}

function close(a: number, b: number): boolean {
  return Math.abs(a / b - 1) < 0.03;
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}
