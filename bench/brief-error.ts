/** The first line of an error plus the first line below it that names an error (a tsc or Node message), bounded. */
export function briefError(message: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const detail = lines.slice(1).find((line) => /error/i.test(line));
  return (detail ? `${lines[0]} ${detail}` : (lines[0] ?? '')).slice(0, 300);
}
