/**
 * The canonical seconds and resolution → MiniMax's `duration` and `resolution` for one model.
 * MiniMax makes a few fixed lengths (6 s, and 10 s on Hailuo models below 1080P): a shorter
 * request (the spec's default is 5 s) gets the shortest video with a warning, any other length
 * is refused naming `seconds`. 720p and 768p stand in for each other with a warning (MiniMax's
 * 01 series makes 720P, Hailuo 768P); other resolutions it does not make are refused.
 */
import { GatewayError } from '../../core/errors.js';
import type { MinimaxVideoModel } from './minimax-models.js';

interface MinimaxVideoLength {
  duration?: number;
  resolution?: string;
}

/** `720p`, or `2k` (MiniMax's newer models speak of 2K). */
const RESOLUTION = /^(?:(\d{3,4})p|([1-8])k)$/i;
const NEAR: Readonly<Record<string, string>> = { '720P': '768P', '768P': '720P' };

export function toMinimaxVideoLength(
  asked: { seconds?: number; resolution?: string },
  upstreamModel: string,
  model: MinimaxVideoModel | undefined,
  hasImage: boolean,
  warn: (message: string) => void,
): MinimaxVideoLength {
  const resolution = asked.resolution === undefined ? undefined : chooseResolution(asked.resolution, upstreamModel, model, hasImage, warn);
  const duration = asked.seconds === undefined ? undefined : chooseDuration(asked.seconds, upstreamModel, model, resolution, warn);
  return { duration, resolution };
}

function chooseResolution(
  asked: string,
  upstreamModel: string,
  model: MinimaxVideoModel | undefined,
  hasImage: boolean,
  warn: (message: string) => void,
): string {
  const match = RESOLUTION.exec(asked.trim());
  if (!match) throw invalid('resolution', `resolution must look like 720p or 1080p, got ${JSON.stringify(asked.slice(0, 32))}.`);
  const wanted = match[1] ? `${Number(match[1])}P` : `${match[2]}K`;
  if (!model) return wanted;
  const makes = model.resolutions.filter((resolution) => hasImage || !model.imageOnly.includes(resolution));
  if (makes.includes(wanted)) return wanted;
  const near = NEAR[wanted];
  if (near && makes.includes(near)) {
    warn(`resolution: MiniMax ${upstreamModel} makes ${near}, not ${wanted}; ${near} was used`);
    return near;
  }
  const onlyWithImage = model.imageOnly.includes(wanted) ? ` (${wanted} only from a first-frame image)` : '';
  throw invalid('resolution', `MiniMax ${upstreamModel} makes ${makes.map((r) => r.toLowerCase()).join(' or ')} videos${onlyWithImage}.`);
}

function chooseDuration(
  seconds: number,
  upstreamModel: string,
  model: MinimaxVideoModel | undefined,
  resolution: string | undefined,
  warn: (message: string) => void,
): number {
  if (!Number.isFinite(seconds) || seconds <= 0) throw invalid('seconds', 'seconds must be a positive number.');
  if (!model) return Math.ceil(seconds);
  const lengths = resolution && model.sixSecondsOnly.includes(resolution) ? model.durations.filter((d) => d <= 6) : model.durations;
  if (lengths.includes(seconds)) return seconds;
  const shortest = Math.min(...lengths);
  if (seconds < shortest) {
    warn(`seconds: MiniMax ${upstreamModel} makes ${shortest}-second videos at the shortest; ${shortest} s were made instead of ${seconds} s`);
    return shortest;
  }
  const at = resolution ? ` at ${resolution.toLowerCase()}` : '';
  throw invalid('seconds', `MiniMax ${upstreamModel} makes ${lengths.join(' or ')}-second videos${at}, not ${seconds} s.`);
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}
