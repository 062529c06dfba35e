/**
 * Writes an H.264 RBSP bit by bit, most significant bit first: fixed-width fields, the
 * Exp-Golomb codes `ue(v)` / `se(v)`, and whole bytes once aligned (PCM samples).
 * Grows its buffer as needed; `finish` adds the RBSP trailing bits.
 */
export class BitWriter {
  private buffer: Uint8Array;
  private length = 0;
  /** Bits already written into the byte at `length` (0–7). */
  private bitCount = 0;
  private current = 0;

  constructor(initialBytes = 256) {
    this.buffer = new Uint8Array(Math.max(16, initialBytes));
  }

  /** Writes `value` in `bits` bits (1–32). */
  u(bits: number, value: number): void {
    if (!Number.isInteger(bits) || bits < 1 || bits > 32) throw new RangeError(`u(${bits}): 1 to 32 bits`);
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** bits) throw new RangeError(`u(${bits}): ${value} does not fit`);
    for (let i = bits - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) % 2);
  }

  flag(value: boolean): void {
    this.bit(value ? 1 : 0);
  }

  /** Unsigned Exp-Golomb: as many zeros as `value + 1` has bits after its first, then `value + 1`. */
  ue(value: number): void {
    if (!Number.isInteger(value) || value < 0 || value > 0xfffffffe) throw new RangeError(`ue(v): ${value} is out of range`);
    const coded = value + 1;
    const bits = Math.floor(Math.log2(coded)) + 1;
    for (let i = 1; i < bits; i++) this.bit(0);
    this.u(bits, coded);
  }

  /** Signed Exp-Golomb: 1, −1, 2, −2… map to 1, 2, 3, 4… */
  se(value: number): void {
    if (!Number.isInteger(value)) throw new RangeError(`se(v): ${value} is not an integer`);
    this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  get aligned(): boolean {
    return this.bitCount === 0;
  }

  /** Zero bits up to the next byte boundary (`pcm_alignment_zero_bit`, `alignment_zero_bit`). */
  alignWithZeros(): void {
    while (this.bitCount !== 0) this.bit(0);
  }

  /** Copies whole bytes; the writer must be byte-aligned. */
  bytes(data: Uint8Array): void {
    if (!this.aligned) throw new Error('bytes() needs a byte-aligned writer');
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  /** Ends the RBSP: the stop bit, then zeros to the byte boundary. Returns the bytes written. */
  finish(): Uint8Array {
    this.bit(1);
    this.alignWithZeros();
    return this.buffer.slice(0, this.length);
  }

  private bit(value: number): void {
    this.current = (this.current << 1) | value;
    this.bitCount++;
    if (this.bitCount === 8) {
      this.reserve(1);
      this.buffer[this.length++] = this.current;
      this.current = 0;
      this.bitCount = 0;
    }
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}
