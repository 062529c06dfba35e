/**
 * A canonical tool call's `arguments` (a JSON string) as the object Anthropic's `input`
 * must be. Arguments that are not a JSON object (a model may emit broken JSON) become `{}`.
 */
export function parseToolInput(argumentsJson: string): Record<string, unknown> {
  if (argumentsJson.length === 0) return {};
  try {
    const value: unknown = JSON.parse(argumentsJson);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
