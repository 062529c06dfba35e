/**
 * Model ids that could be read as another path. Some vendors put the model in the URL path
 * (`/v1beta/models/{model}:generateContent`), and key scopes match ids with wildcards
 * (`textmodel-c-2.5-flash*`): an id such as `textmodel-c-2.5-flash/../gemini-2.5-pro` would pass
 * the scope and name another model once a server resolves the path. So every model id a client
 * sends must be its own normal form — nothing that percent-decoding, a backslash read as a slash,
 * a query, a fragment or dot-segment removal would change — and an id that is not is refused
 * before anything else looks at it (key scopes included). A `/` between two plain segments stays
 * allowed: ids such as `meta-llama/llama-3-70b` are common on OpenAI-compatible servers; the
 * providers that put a model in a path refuse or split it themselves (`providers/shared/path-segment.ts`).
 */
import { quoteValue } from './describe-value.js';
import { GatewayError } from './errors.js';

/** Characters that end, escape or redirect a URL path: never in a model id. */
const PATH_CHARACTERS = /[\\?#%]/;
/** A `/`-separated segment that is empty, `.` or `..` (a leading, trailing or double `/` included). */
const EMPTY_OR_DOT_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** Why `model` is not its own normal form as a URL path, or undefined when it is (the empty id is not this rule's to refuse). */
export function modelIdPathProblem(model: string): string | undefined {
  if (PATH_CHARACTERS.test(model)) return 'contains `\\`, `?`, `#` or `%`';
  if (model !== '' && EMPTY_OR_DOT_SEGMENT.test(model)) return 'has an empty, `.` or `..` path segment';
  return undefined;
}

/** Throws the client's 400 when the model id could be read as another path. */
export function refusePathLikeModelId(model: string): void {
  const problem = modelIdPathProblem(model);
  if (problem === undefined) return;
  throw new GatewayError('invalid_request', `The model id ${quoteValue(model)} ${problem}; model ids are plain names.`, {
    code: 'invalid_model',
    param: 'model',
  });
}
