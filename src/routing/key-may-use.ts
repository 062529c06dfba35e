import type { AuthenticatedKey } from '../core/key.js';
import { compileModelPattern } from './model-pattern.js';

const compiled = new WeakMap<string[], Array<(model: string) => boolean>>();

/** Whether a key's model restriction (if any) lets it use the model. */
export function keyMayUse(key: AuthenticatedKey, model: string): boolean {
  if (key.models === null) return true;
  let matchers = compiled.get(key.models);
  if (!matchers) {
    matchers = key.models.map(compileModelPattern);
    compiled.set(key.models, matchers);
  }
  return matchers.some((match) => match(model));
}
