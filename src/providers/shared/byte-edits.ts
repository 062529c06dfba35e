/**
 * Edits of a received chunk, applied in one pass: each replaces a range of the chunk with other
 * bytes (or nothing). A relay that changes a few bytes per event (a model name, a trailing
 * member) then costs one allocation and one copy per chunk, not one per event.
 */
export class ByteEdits {
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly inserts: Array<Buffer | undefined> = [];
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
   * when the result is nowhere longer than what it replaces (the usual cut or same-length
   * rename) the edits are made in `bytes` itself, which then must not be read again.
   */
  apply(bytes: Buffer, end: number): Buffer {
    if (this.count === 0) return end === bytes.length ? bytes : bytes.subarray(0, end);
    // Growth so far after each edit: never above 0, no edit writes past the bytes still to be read.
    let growth = 0;
    let inPlace = true;
    for (let i = 0; i < this.count; i++) {
      growth += (this.inserts[i]?.length ?? 0) - (this.to[i] - this.from[i]);
      if (growth > 0) inPlace = false;
    }
    const out = inPlace ? this.compact(bytes, end) : this.copy(bytes, end, end + growth);
    this.clear();
    return out;
  }

  private compact(bytes: Buffer, end: number): Buffer {
    let at = 0;
    let read = 0;
    for (let i = 0; i < this.count; i++) {
      const from = this.from[i];
      if (at !== read) bytes.copyWithin(at, read, from);
      at += from - read;
      const insert = this.inserts[i];
      if (insert !== undefined) {
        bytes.set(insert, at);
        at += insert.length;
      }
      read = this.to[i];
    }
    if (at !== read) bytes.copyWithin(at, read, end);
    return bytes.subarray(0, at + end - read);
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
