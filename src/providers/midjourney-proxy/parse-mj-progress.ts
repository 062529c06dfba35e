/** The proxy's progress text (`"0%"` … `"100%"`; `""` after a failure) → 0–1, or undefined when it says nothing usable. */
export function parseMjProgress(progress: unknown): number | undefined {
  if (typeof progress !== 'string' || progress.length > 16) return undefined;
  const match = /^\s*(\d{1,3}(?:\.\d{1,4})?)\s*%\s*$/.exec(progress);
  if (!match) return undefined;
  return Math.min(1, Number(match[1]) / 100);
}
