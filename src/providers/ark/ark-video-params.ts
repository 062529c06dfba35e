/**
 * The canonical video settings as Ark text commands (`--resolution 720p --ratio 16:9
 * --duration 5 --seed 7`), checked first against what Seedance takes so a refusal names the
 * canonical field. Settings the request leaves out are not sent: Ark then uses the model's own
 * default (5 s; 720p, or 1080p for 1.0 pro; 16:9 for text, `adaptive` for an image).
 * Options `cameraFixed` and `watermark` (booleans) ride along as `--camerafixed` / `--watermark`.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskRequest } from '../../core/task.js';
import { arkDurationRange } from './ark-models.js';

export type ArkFlagName = 'resolution' | 'ratio' | 'duration' | 'seed' | 'camerafixed' | 'watermark';
export type ArkFlag = [name: ArkFlagName, value: string];

const ARK_RESOLUTIONS: readonly string[] = ['480p', '720p', '1080p'];
const ARK_RATIOS: readonly string[] = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const MAX_SEED = 2 ** 32 - 1;

export function arkVideoFlags(request: TaskRequest, model: string, referenceImages: boolean): ArkFlag[] {
  const flags: ArkFlag[] = [];
  if (request.resolution !== undefined) {
    const resolution = String(request.resolution).toLowerCase();
    if (!ARK_RESOLUTIONS.includes(resolution)) {
      throw invalid(`resolution must be one of ${ARK_RESOLUTIONS.join(', ')} for Seedance`, 'resolution');
    }
    if (resolution === '1080p' && referenceImages) throw invalid('Seedance makes at most 720p from reference images', 'resolution');
    flags.push(['resolution', resolution]);
  }
  if (request.aspectRatio !== undefined) {
    if (!ARK_RATIOS.includes(request.aspectRatio)) throw invalid(`aspectRatio must be one of ${ARK_RATIOS.join(', ')} for Seedance`, 'aspectRatio');
    flags.push(['ratio', request.aspectRatio]);
  }
  if (request.seconds !== undefined) {
    const { min, max } = arkDurationRange(model);
    if (!Number.isInteger(request.seconds) || request.seconds < min || request.seconds > max) {
      throw invalid(`seconds must be a whole number from ${min} to ${max} for ${model}`, 'seconds');
    }
    flags.push(['duration', String(request.seconds)]);
  }
  if (request.seed !== undefined) {
    if (!Number.isInteger(request.seed) || request.seed < -1 || request.seed > MAX_SEED)
      throw invalid(`seed must be a whole number from -1 to ${MAX_SEED}`, 'seed');
    flags.push(['seed', String(request.seed)]);
  }
  for (const [option, name] of [
    ['cameraFixed', 'camerafixed'],
    ['watermark', 'watermark'],
  ] as const) {
    const value = request.options?.[option];
    if (typeof value === 'boolean') flags.push([name, String(value)]);
  }
  return flags;
}

function invalid(message: string, param: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}
