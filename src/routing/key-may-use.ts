import type { AuthenticatedKey } from '../core/key.js';
import { modelIdPathProblem } from '../core/model-id-path.js';
import { compileModelPattern } from './model-pattern.js';

const compiled = new WeakMap<string[], Array<(model: string) => boolean>>();

/**
 * Whether a key's model restriction (if any) lets it use the model. A restricted key never
 * matches an id that could be read as another path (`flash*` against `flash/../pro`): scopes
 * match normal-form ids only (admission refuses the others before this; this holds without it).
 */
export function keyMayUse(key: AuthenticatedKey, model: string): boolean {
  if (key.models === null) return true;
  if (modelIdPathProblem(model) !== undefined) return false;
  let matchers = compiled.get(key.models);
  if (!matchers) {
    matchers = key.models.map(compileModelPattern);
    compiled.set(key.models, matchers);
  }
  return matchers.some((match) => match(model));
}
