/** `gemini-2.5-flash:generateContent` → model and action, split on the last colon. */
interface ModelAction {
  model: string;
  action: string;
}

export function splitModelAction(segment: string): ModelAction | undefined {
  const colon = segment.lastIndexOf(':');
  if (colon <= 0 || colon === segment.length - 1) return undefined;
  return { model: segment.slice(0, colon), action: segment.slice(colon + 1) };
}
