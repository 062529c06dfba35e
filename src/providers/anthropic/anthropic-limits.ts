/**
 * The limits Anthropic's Messages API documents for fields a translated request fills, as the
 * fit step's data (`providers/shared/fit-to-target.ts`): a tool name matching
 * `^[a-zA-Z0-9_-]{1,64}$` (the tool-use guide; the API reference allows 128, the stricter
 * rule is kept since fitting is reversible), a `metadata.user_id` of at most 256 characters,
 * and stop sequences that are not whitespace only. Anthropic documents no count of tools or
 * stop sequences. (Temperature above 1 is fitted with thinking, `anthropic-thinking.ts`.)
 */
import { ANTHROPIC_STOP_RULES } from '../shared/check-stop-sequences.js';
import type { TargetLimits } from '../shared/fit-to-target.js';

export const ANTHROPIC_LIMITS: TargetLimits = {
  stop: ANTHROPIC_STOP_RULES,
  userMaxLength: 256,
  toolNames: { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ },
};
