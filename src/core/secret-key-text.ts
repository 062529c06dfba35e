/** The secret key as an operator writes it: 32 bytes as 64 hex digits or as base64 (standard or URL-safe). */
export const SECRET_KEY_BYTES = 32;

/** The key's bytes, or undefined when `text` is not such a key. */
export function decodeSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) key = Buffer.from(value, 'base64');
  return key && key.length === SECRET_KEY_BYTES ? key : undefined;
}

/** What to say of a malformed key; `origin` names where it came from (a variable, a file). */
export function malformedSecretKeyMessage(origin: string): string {
  return `${origin} must be ${SECRET_KEY_BYTES} bytes written in base64 or hex (e.g. the output of \`openssl rand -base64 32\`)`;
}
