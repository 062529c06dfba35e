/**
 * Which Ark model runs a request. Seedance 1.0 lite is two models, text-to-video
 * (`…-lite-t2v-250428`) and image-to-video (`…-lite-i2v-250428`), while the public id
 * `videogen2-1-0-lite` stands for both: the channel maps it to the family name
 * `doubao-seedance-1-0-lite` and the choice is made here, per request, by whether an image came
 * with it. A name that already says t2v or i2v is used as it is, and a request that does not fit
 * it (an image for t2v, none for i2v) is refused here rather than sent to fail upstream.
 */
import { GatewayError } from '../../core/errors.js';

/** Family name (what a channel's rewrite yields) → its two dated models. */
const SPLIT_FAMILIES: Record<string, { t2v: string; i2v: string }> = {
  'doubao-seedance-1-0-lite': { t2v: 'doubao-seedance-1-0-lite-t2v-250428', i2v: 'doubao-seedance-1-0-lite-i2v-250428' },
};

export function arkModelFor(upstreamModel: string, hasImages: boolean): string {
  const family = SPLIT_FAMILIES[upstreamModel];
  if (family) return hasImages ? family.i2v : family.t2v;
  if (hasImages && /-t2v(-|$)/.test(upstreamModel)) {
    throw new GatewayError('invalid_request', `model ${upstreamModel} makes videos from text only; use its image-to-video model for images`, {
      param: 'images',
    });
  }
  if (!hasImages && /-i2v(-|$)/.test(upstreamModel)) {
    throw new GatewayError('invalid_request', `model ${upstreamModel} makes videos from an image: give one (a first frame or reference images)`, {
      param: 'images',
    });
  }
  return upstreamModel;
}

/** Whole seconds a Seedance generation may last, by model line; other names (endpoint ids `ep-…`) get the widest range. */
export function arkDurationRange(model: string): { min: number; max: number } {
  if (/seedance-1-0-/.test(model)) return { min: 2, max: 12 };
  if (/seedance-1-5-/.test(model)) return { min: 4, max: 12 };
  if (/seedance-2-/.test(model)) return { min: 4, max: 15 };
  return { min: 2, max: 15 };
}
