/**
 * A text from Ark (an error message, a failure reason) made fit to show a client: a string only,
 * URLs (which name upstream hosts and may carry signatures) and the channel's secrets taken out,
 * whitespace collapsed, length bounded.
 */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

export function cleanArkText(value: unknown, secrets: readonly string[] = [], max = 500): string {
  if (typeof value !== 'string') return '';
  let text = value.replace(URL_PATTERN, '<url>');
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('<secret>');
  text = text.replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
