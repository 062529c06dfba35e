/**
 * Writes a batch, and when the database refuses it for the data of some row, finds that row by
 * halving the batch (each write is one transaction: a refused one wrote nothing), so that one
 * bad row costs a few writes instead of blocking every row queued with it. Any other failure
 * (the database is unreachable or busy) stops there: what was not written is handed back, in
 * order, to be retried.
 */

interface Isolated<T> {
  written: T[];
  /** Items the database refused on their own, with its error. */
  refused: Array<{ item: T; error: unknown }>;
  /** Items not written because the database failed otherwise (`error`); retry them. */
  unwritten: T[];
  error?: unknown;
}

export async function insertIsolating<T>(items: T[], insert: (items: T[]) => Promise<void>, isRefused: (error: unknown) => boolean): Promise<Isolated<T>> {
  const result: Isolated<T> = { written: [], refused: [], unwritten: [] };
  // Parts still to write, in order; a refused part is replaced by its two halves.
  const parts: T[][] = [items];
  while (parts.length > 0) {
    const part = parts.shift() as T[];
    try {
      await insert(part);
      for (const item of part) result.written.push(item);
    } catch (error) {
      if (!isRefused(error)) {
        result.unwritten = part.concat(...parts);
        result.error = error;
        break;
      }
      if (part.length === 1) result.refused.push({ item: part[0], error });
      else parts.unshift(part.slice(0, Math.ceil(part.length / 2)), part.slice(Math.ceil(part.length / 2)));
    }
  }
  return result;
}
