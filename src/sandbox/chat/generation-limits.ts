/**
 * Hard bounds on what the sandbox generates from a client's schema or pattern (tool arguments,
 * structured answers). A schema whose minimums exceed them is refused with a
 * GenerationLimitError (the caller turns it into a 400 naming the tool or the response
 * schema); larger maximums are clamped. The budget is shared by everything one answer
 * generates, so the work per request is bounded whatever the schemas ask for.
 */

/** Items generated in one array at most (`minItems` above it is refused, `maxItems` clamped). */
export const MAX_ITEMS = 100;
/** Properties generated in one object beyond the ones the schema names (`minProperties` above it is refused). */
export const MAX_PROPERTIES = 100;
/** Characters of one generated string (`minLength` or a pattern needing more is refused). */
export const MAX_STRING_LENGTH = 10_000;
/** Longer patterns are not parsed (only checked against a few common strings). */
export const MAX_PATTERN_LENGTH = 1_000;
/** Schema nodes visited (resolved, merged or generated) for one answer. */
const MAX_STEPS = 20_000;
/** Characters of generated strings in one answer. */
const MAX_OUTPUT_CHARS = 200_000;

/** Thrown when a schema cannot be satisfied within the bounds above; `path` is where in the generated value. */
export class GenerationLimitError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'GenerationLimitError';
  }
}

export interface GenerationBudget {
  steps: number;
  chars: number;
}

export function createGenerationBudget(): GenerationBudget {
  return { steps: MAX_STEPS, chars: MAX_OUTPUT_CHARS };
}

export function spendStep(budget: GenerationBudget, path: string, steps = 1): void {
  budget.steps -= steps;
  if (budget.steps < 0) {
    throw new GenerationLimitError(`the schema needs more than the ${MAX_STEPS} steps the sandbox spends on generating JSON`, path);
  }
}

export function spendChars(budget: GenerationBudget, path: string, chars: number): void {
  budget.chars -= chars;
  if (budget.chars < 0) {
    throw new GenerationLimitError(`the generated JSON would be longer than the ${MAX_OUTPUT_CHARS} characters of text the sandbox generates`, path);
  }
}
