/**
 * Every string the admin API is sent — path parameters, query parameters, body values and member
 * names — before its schema is checked: control characters are refused (in the body, tabs and
 * line breaks excepted: prompts and notes hold lines). They have no business in the names, ids,
 * e-mails, filters and settings this API stores and looks up, and PostgreSQL cannot hold U+0000
 * at all (a lookup with one was its 500). The error names the field, never the character.
 */
import type { FastifyRequest } from 'fastify';
import { checkIdentifierText, checkPlainText, controlCharacterAt, findString } from '../core/client-strings.js';

export function refuseControlCharacters(request: FastifyRequest): void {
  const inUrl = (text: string) => controlCharacterAt(text) !== -1;
  const param = findString(request.params, inUrl) ?? findString(request.query, inUrl);
  if (param) checkIdentifierText(param.text, param.path);
  const inBody = (text: string) => controlCharacterAt(text, true) !== -1;
  const field = findString(request.body, inBody);
  if (field) checkPlainText(field.text, field.path);
}
