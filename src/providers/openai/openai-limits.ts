/**
 * The limits the OpenAI Chat Completions reference documents for fields a translated request
 * fills, as the fit step's data (`providers/shared/fit-to-target.ts`): a function name of at
 * most 64 characters of `a-z A-Z 0-9 _ -`, a `user` of at most 64 characters, the flavour's
 * stop-sequence rules, and the flavour's tool count (OpenAI: "a max of 128 functions").
 * Compatible servers document no limits of their own; the dialect's are kept for them too,
 * since fitting to them loses nothing (names are restored, ids hashed stably).
 */
import type { TargetLimits } from '../shared/fit-to-target.js';
import type { ToolNameRules } from '../shared/fit-tool-names.js';
import type { OpenAIFlavour } from './openai-flavour.js';

export const OPENAI_TOOL_NAME_RULES: ToolNameRules = { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ };
export const OPENAI_USER_MAX_LENGTH = 64;

export function openAILimits(flavour: OpenAIFlavour): TargetLimits {
  const limits: TargetLimits = { stop: flavour.stopRules, userMaxLength: OPENAI_USER_MAX_LENGTH, toolNames: OPENAI_TOOL_NAME_RULES };
  if (flavour.maxTools !== undefined) limits.maxTools = flavour.maxTools;
  return limits;
}
