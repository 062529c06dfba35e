/**
 * Canonical tool-call arguments (a JSON string) → the object Gemini's `functionCall.args`
 * must be. Arguments that are not a JSON object (a call cut short by the length limit) become
 * an empty object rather than a response the client cannot parse.
 */
export function toolCallArgs(json: string): Record<string, unknown> {
  if (json.length === 0) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
