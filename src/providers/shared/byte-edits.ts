/**
 * Edits of a received chunk, applied in one pass: each replaces a range of the chunk with other
 * bytes (or nothing). A relay that changes a few bytes per event (a model name, a trailing
 * member) then edits the received chunk itself when the chunk does not grow as a whole, and
 * otherwise costs one allocation and one copy per chunk, never one per event.
 */
export class ByteEdits {
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly inserts: Array<Buffer | undefined> = [];
  /** Growth of the result after each edit (scratch of `apply`). */
  private readonly growth: number[] = [];
  /** Edits recorded since the last `clear`. */
  count = 0;

  /**
   * Replaces `[from, to)` of the chunk with `insert` (nothing when absent). Edits must come in
   * increasing order and must not overlap.
   */
  replace(from: number, to: number, insert?: Buffer): void {
    const i = this.count++;
    this.from[i] = from;
    this.to[i] = to;
    this.inserts[i] = insert;
  }

  /** Forgets the edits recorded after the first `count` (an event that turned out not to fit). */
  truncate(count: number): void {
    for (let i = count; i < this.count; i++) this.inserts[i] = undefined;
    this.count = count;
  }

  clear(): void {
    this.truncate(0);
  }

  /**
   * `bytes[0, end)` with the edits applied: a view of `bytes` itself when there are none, and
   * when the result is no longer than `end` (the usual cut, or a longer model name followed by
   * a cut in the same event) the edits are made in `bytes` itself, which then must not be read
   * again; only a chunk that grows as a whole is copied.
   */
  apply(bytes: Buffer, end: number): Buffer {
    const { count, growth } = this;
    if (count === 0) return end === bytes.length ? bytes : bytes.subarray(0, end);
    let total = 0;
    for (let i = 0; i < count; i++) {
      total += (this.inserts[i]?.length ?? 0) - (this.to[i] - this.from[i]);
      growth[i] = total;
    }
    const out = total > 0 ? this.copy(bytes, end, end + total) : this.inPlace(bytes, end);
    this.clear();
    return out;
  }

  /**
   * The edits made in `bytes`, whose result is no longer than `end`. Left to right, each kept
   * range moves left (or stays), so nothing still to be read is overwritten; a run of edits
   * that puts the result ahead of the input (a longer insert) is done right to left, from its
   * last edit (after which the result is back behind the input) to its first.
   */
  private inPlace(bytes: Buffer, end: number): Buffer {
    const { from, to, inserts, growth, count } = this;
    let i = 0;
    while (i < count) {
      // The kept range before edit i moves by the growth before it (≤ 0 here).
      const before = i === 0 ? 0 : growth[i - 1];
      const read = i === 0 ? 0 : to[i - 1];
      if (before !== 0) bytes.copyWithin(read + before, read, from[i]);
      if (growth[i] <= 0) {
        const insert = inserts[i];
        if (insert !== undefined) bytes.set(insert, from[i] + before);
        i++;
        continue;
      }
      // The total is ≤ 0, so the run ends.
      let last = i + 1;
      while (growth[last] > 0) last++;
      for (let j = last; j >= i; j--) {
        const insert = inserts[j];
        if (insert !== undefined) bytes.set(insert, from[j] + (j === 0 ? 0 : growth[j - 1]));
        if (j > i) bytes.copyWithin(to[j - 1] + growth[j - 1], to[j - 1], from[j]);
      }
      i = last + 1;
    }
    const shift = growth[count - 1];
    const rest = to[count - 1];
    if (shift !== 0) bytes.copyWithin(rest + shift, rest, end);
    return bytes.subarray(0, end + shift);
  }

  private copy(bytes: Buffer, end: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    let read = 0;
    for (let i = 0; i < this.count; i++) {
      at += bytes.copy(out, at, read, this.from[i]);
      const insert = this.inserts[i];
      if (insert !== undefined) at += insert.copy(out, at);
      read = this.to[i];
    }
    bytes.copy(out, at, read, end);
    return out;
  }
}

/** Whether `bytes[at, at + needle.length)` is `needle` (a loop: cheaper than a native call for a few bytes). */
export function bytesAt(bytes: Buffer, at: number, needle: Buffer): boolean {
  if (at < 0 || at + needle.length > bytes.length) return false;
  for (let i = 0; i < needle.length; i++) if (bytes[at + i] !== needle[i]) return false;
  return true;
}
