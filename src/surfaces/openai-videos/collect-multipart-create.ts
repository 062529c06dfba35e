/**
 * A multipart `POST /v1/videos` body, as openai-node sends it → CreateParts. The one file is
 * `input_reference`; `input_reference[image_url]` and `input_reference[file_id]` are the
 * reference object's fields; every other part is a text field (values stay strings, as
 * `seconds` is in OpenAI's API). The whole body is bounded by the gateway's body limit.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { Json } from '../../core/validate.js';
import { type CreateParts, REFERENCE_PARAM, type ReferenceSource } from './create-parts.js';

/** The multipart plugin's limits for this route: one file, a few fields. */
export const CREATE_MULTIPART_LIMITS = { files: 1, fields: 32, parts: 40 } as const;

export async function collectMultipartCreate(request: FastifyRequest, bodyLimit: number): Promise<CreateParts> {
  const fields: Json = {};
  let reference: ReferenceSource | undefined;
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== REFERENCE_PARAM) {
          part.file.resume();
          throw invalidRequest(`${part.fieldname}: only ${REFERENCE_PARAM} may be a file`, part.fieldname);
        }
        const data = await part.toBuffer();
        total += data.length;
        reference = part.filename === undefined || part.filename === '' ? { kind: 'file', data } : { kind: 'file', data, filename: part.filename };
      } else {
        if (part.valueTruncated) throw tooLarge(bodyLimit);
        const value = String(part.value);
        total += value.length;
        if (part.fieldname === REFERENCE_PARAM || part.fieldname === `${REFERENCE_PARAM}[image_url]`) reference = { kind: 'url', value };
        else if (part.fieldname === `${REFERENCE_PARAM}[file_id]`) reference = { kind: 'file_id' };
        else fields[part.fieldname] = value;
      }
      if (total > bodyLimit) throw tooLarge(bodyLimit);
    }
  } catch (error) {
    throw multipartError(error, bodyLimit);
  }
  return reference ? { fields, reference } : { fields };
}

function tooLarge(bodyLimit: number): GatewayError {
  return new GatewayError('request_too_large', `request body is larger than the configured limit of ${bodyLimit} bytes`, { code: 'request_too_large' });
}

/** The multipart plugin's and the form parser's errors → GatewayErrors; ours pass through. */
function multipartError(error: unknown, bodyLimit: number): GatewayError {
  if (error instanceof GatewayError) return error;
  switch ((error as { code?: string })?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new GatewayError('request_too_large', `${REFERENCE_PARAM}: the file is larger than the configured limit of ${bodyLimit} bytes`, {
        code: 'request_too_large',
        param: REFERENCE_PARAM,
      });
    case 'FST_FILES_LIMIT':
      return invalidRequest(`${REFERENCE_PARAM}: at most one file may be uploaded`, REFERENCE_PARAM);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalidRequest('body: too many form fields', 'body');
  }
  const message = error instanceof Error ? error.message : String(error);
  return invalidRequest(`body: malformed multipart/form-data: ${message}`, 'body');
}
