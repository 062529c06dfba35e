/** The Options field's text as the JSON object the API takes; a message when it is not one. */
export function parseOptions(text: string): { options?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'Options must be JSON, e.g. {"region": "eu-west-1"}.' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'Options must be a JSON object, e.g. {"region": "eu-west-1"}.' };
  return { options: value as Record<string, unknown> };
}
