/**
 * Ark's generation parameters ride in the prompt text as `--name value` flags
 * (`--duration 5 --ratio 16:9 --resolution 720p --seed 1`, short forms `--dur`, `--rt`, `--rs`).
 * The known flags are read into the canonical fields (or, for Ark's extras, `options` under
 * Ark's names) and removed from the prompt; anything else, `[Image1]` references included,
 * stays in the prompt as written. Each flag may be given once.
 */
import { quoteValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { MAX_VIDEO_SECONDS, MIN_VIDEO_SECONDS } from '../shared/parse-video-fields.js';

export interface TextFlags {
  /** The text without the flags read (blank runs they leave collapsed), trimmed. */
  prompt: string;
  seconds?: number;
  aspectRatio?: string;
  resolution?: string;
  seed?: number;
  /** Ark's other parameters: `framespersecond`, `camerafixed`, `watermark`. */
  options?: Record<string, number | boolean>;
}

type Field = 'seconds' | 'aspectRatio' | 'resolution' | 'seed' | 'framespersecond' | 'camerafixed' | 'watermark';

const FLAGS: Readonly<Record<string, Field>> = {
  duration: 'seconds',
  dur: 'seconds',
  ratio: 'aspectRatio',
  rt: 'aspectRatio',
  resolution: 'resolution',
  rs: 'resolution',
  seed: 'seed',
  framespersecond: 'framespersecond',
  fps: 'framespersecond',
  camerafixed: 'camerafixed',
  cf: 'camerafixed',
  watermark: 'watermark',
  wm: 'watermark',
};

/** `--name value` at the start or after white space; the value runs to the next white space. */
const FLAG = /(^|\s)--([A-Za-z]+)\s+(\S+)/g;
const RATIO = /^(?:\d{1,2}:\d{1,2}|adaptive|keep_ratio)$/;
const RESOLUTION = /^\d{3,4}p$/;
const MAX_SEED = 4_294_967_295;

export function parseTextFlags(text: string, param: string): TextFlags {
  const flags: TextFlags = { prompt: '' };
  const seen = new Set<Field>();
  const options: Record<string, number | boolean> = {};
  const prompt = text.replace(FLAG, (whole, lead: string, rawName: string, value: string) => {
    const name = rawName.toLowerCase();
    const field = Object.hasOwn(FLAGS, name) ? FLAGS[name] : undefined;
    if (field === undefined) return whole;
    if (seen.has(field)) throw invalidRequest(`${param}: --${name} is given more than once`, param);
    seen.add(field);
    const flag = `--${name}`;
    switch (field) {
      case 'seconds':
        flags.seconds = wholeNumber(value, flag, param, MIN_VIDEO_SECONDS, MAX_VIDEO_SECONDS);
        break;
      case 'aspectRatio':
        flags.aspectRatio = matching(value, RATIO, flag, param, 'a ratio such as 16:9, or adaptive');
        break;
      case 'resolution':
        flags.resolution = matching(value.toLowerCase(), RESOLUTION, flag, param, 'a resolution such as 720p');
        break;
      case 'seed': {
        // Ark's -1 asks for a random seed: the same as giving none.
        const seed = value === '-1' ? undefined : wholeNumber(value, flag, param, 0, MAX_SEED);
        if (seed !== undefined) flags.seed = seed;
        break;
      }
      case 'framespersecond':
        options.framespersecond = wholeNumber(value, flag, param, 1, 120);
        break;
      default:
        options[field] = truth(value, flag, param);
    }
    return lead;
  });
  flags.prompt = prompt.replace(/[ \t]{2,}/g, ' ').trim();
  if (Object.keys(options).length > 0) flags.options = options;
  return flags;
}

function wholeNumber(value: string, flag: string, param: string, min: number, max: number): number {
  const n = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n)) throw invalidRequest(`${param}: ${flag} expects a whole number, got ${quoteValue(value, 32)}`, param);
  if (n < min || n > max) throw invalidRequest(`${param}: ${flag} must be between ${min} and ${max}, got ${n}`, param);
  return n;
}

function matching(value: string, pattern: RegExp, flag: string, param: string, what: string): string {
  if (!pattern.test(value)) throw invalidRequest(`${param}: ${flag} expects ${what}, got ${quoteValue(value, 32)}`, param);
  return value;
}

function truth(value: string, flag: string, param: string): boolean {
  const word = value.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  throw invalidRequest(`${param}: ${flag} expects true or false, got ${quoteValue(value, 32)}`, param);
}
