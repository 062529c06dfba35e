/**
 * The model of an imagegen1 request: `owner/name` or `owner/name:version`, as Replicate names
 * models. The `replicate` npm client sends a pinned version as a separate `version` field
 * (`{version, input}`), alone when run with `owner/name:version`, so `version` may carry the
 * whole reference; a bare version id names no model and is refused.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { optionalString } from '../../core/validate.js';

const NAME_PART = '[A-Za-z0-9][A-Za-z0-9._-]{0,99}';
const VERSION_PART = '[A-Za-z0-9]{1,128}';
const MODEL_REFERENCE = new RegExp(`^${NAME_PART}/${NAME_PART}(:${VERSION_PART})?$`);
const VERSION_ID = new RegExp(`^${VERSION_PART}$`);

export function parseModel(modelValue: unknown, versionValue: unknown): string {
  const model = optionalString(modelValue, 'model');
  const version = optionalString(versionValue, 'version');
  if (model === undefined) {
    if (version?.includes('/')) return checkReference(version, 'version');
    throw invalidRequest(
      version === undefined ? 'model: is required ("owner/name" or "owner/name:version")' : 'model: is required; a bare version id does not name a model',
      'model',
    );
  }
  const reference = checkReference(model, 'model');
  if (version === undefined || version === '') return reference;
  if (!VERSION_ID.test(version)) throw invalidRequest(`version: must be a version id (letters and digits), got ${describeValue(version)}`, 'version');
  if (reference.includes(':')) {
    if (reference.endsWith(`:${version}`)) return reference;
    throw invalidRequest('version: differs from the version given in model; give it in one place', 'version');
  }
  return `${reference}:${version}`;
}

function checkReference(value: string, param: string): string {
  if (!MODEL_REFERENCE.test(value)) {
    throw invalidRequest(`${param}: must name a model as "owner/name" or "owner/name:version", got ${describeValue(value)}`, param);
  }
  return value;
}
