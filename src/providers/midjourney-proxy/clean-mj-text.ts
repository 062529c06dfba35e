/**
 * Text the proxy wrote (a submit answer's description, a task's failReason) made fit for an
 * error message: a string, URLs removed (they may name the upstream's host or a signed file),
 * whitespace collapsed, length bounded.
 */
const URL_PATTERN = /\b(?:https?|wss?):\/\/\S+/gi;
const MAX_MJ_TEXT_CHARS = 500;

export function cleanMjText(value: unknown, max = MAX_MJ_TEXT_CHARS): string {
  if (typeof value !== 'string') return '';
  const text = value
    .slice(0, max * 4)
    .replace(URL_PATTERN, '<url>')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
