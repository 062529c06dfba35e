/**
 * An upstream error body as the JSON object it usually is, for the mappers that read named
 * fields out of it (`detail`, `message`, …); `undefined` when it is not a JSON object, and the
 * mapper falls back to the text.
 */
export function errorBodyObject(bodyText: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}
