/**
 * The limits the Gemini API documents for fields a translated request fills, as the fit
 * step's data (`providers/shared/fit-to-target.ts`): at most five stop sequences, and a
 * function name that starts with a letter or an underscore and holds at most 64 characters.
 * The reference allows dots and colons in a declaration's name but not in a `FunctionCall`'s,
 * so only `a-z A-Z 0-9 _ -` are kept (the renaming is reversed in the answer). The candidate
 * count (at most 8) is checked where `n` is translated (`gemini-chat-provider.ts`); Gemini has
 * no end-user id field.
 */
import { GEMINI_STOP_RULES } from '../shared/check-stop-sequences.js';
import type { TargetLimits } from '../shared/fit-to-target.js';

export const GEMINI_LIMITS: TargetLimits = {
  stop: GEMINI_STOP_RULES,
  toolNames: { maxLength: 64, allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z_]/ },
};
