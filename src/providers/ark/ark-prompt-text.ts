/**
 * The text item Ark reads: the prompt, then the settings as `--name value` commands. A prompt
 * may carry commands of its own (clients that know Ark write `--rs 480p --dur 10`); one the
 * request also sets as a canonical field is taken out, so the canonical value wins and Ark never
 * sees a setting twice. The prompt's other commands (`--fps 24`, and any the request leaves
 * unset) stay where they are.
 */
import { GatewayError } from '../../core/errors.js';
import type { ArkFlag, ArkFlagName } from './ark-video-params.js';

/** Seedance prompts are meant to be short (Ark advises at most 500 words); this only bounds the request. */
export const MAX_ARK_PROMPT_CHARS = 8_000;

const NAMES: Record<string, ArkFlagName> = {
  resolution: 'resolution',
  rs: 'resolution',
  ratio: 'ratio',
  rt: 'ratio',
  duration: 'duration',
  dur: 'duration',
  seed: 'seed',
  camerafixed: 'camerafixed',
  cf: 'camerafixed',
  watermark: 'watermark',
  wm: 'watermark',
};
const COMMAND = /(^|\s)--([A-Za-z]+)\s+(\S+)/g;

export function arkPromptText(prompt: string | undefined, flags: readonly ArkFlag[]): string {
  const text = prompt ?? '';
  if (text.length > MAX_ARK_PROMPT_CHARS) {
    throw new GatewayError('invalid_request', `prompt is longer than ${MAX_ARK_PROMPT_CHARS} characters`, { param: 'prompt' });
  }
  const set = new Set(flags.map(([name]) => name));
  const kept = text.replace(COMMAND, (whole, _lead: string, name: string) => (set.has(NAMES[name.toLowerCase()]) ? '' : whole)).trim();
  return [kept, ...flags.map(([name, value]) => `--${name} ${value}`)].filter(Boolean).join(' ');
}
