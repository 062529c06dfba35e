/**
 * Text a vendor wrote (an error's detail, a task's failure reason) made fit for a client-facing
 * message: a string, URLs masked (they may name the upstream's host or a signed file), the
 * channel's credentials masked, control characters and runs of whitespace collapsed, bounded.
 */
const URL_PATTERN = /\b(?:https?|wss?):\/\/\S+/gi;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f]+/g;
const MAX_VENDOR_TEXT_CHARS = 500;

export function cleanVendorText(value: unknown, secrets: readonly string[] = [], max = MAX_VENDOR_TEXT_CHARS): string {
  if (typeof value !== 'string') return '';
  let text = value.slice(0, max * 4);
  for (const secret of secrets) if (secret.length >= 8) text = text.split(secret).join('[redacted]');
  text = text.replace(URL_PATTERN, '[url]').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
