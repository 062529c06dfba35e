/**
 * ISO base media file boxes: a 32-bit size, a four-letter type, the body. A small big-endian
 * writer builds bodies; `box` and `fullBox` wrap them.
 */

export class ByteWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  u8(value: number): this {
    return this.raw(Uint8Array.of(value & 0xff));
  }

  u16(value: number): this {
    const out = new Uint8Array(2);
    new DataView(out.buffer).setUint16(0, value);
    return this.raw(out);
  }

  u32(value: number): this {
    const out = new Uint8Array(4);
    new DataView(out.buffer).setUint32(0, value >>> 0);
    return this.raw(out);
  }

  zeros(count: number): this {
    return this.raw(new Uint8Array(count));
  }

  ascii(text: string): this {
    return this.raw(Uint8Array.from(text, (c) => c.charCodeAt(0) & 0x7f));
  }

  raw(data: Uint8Array): this {
    this.parts.push(data);
    this.size += data.length;
    return this;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export function box(type: string, ...children: Uint8Array[]): Uint8Array {
  if (type.length !== 4) throw new Error(`box type must be four characters: ${type}`);
  const body = new ByteWriter();
  for (const child of children) body.raw(child);
  const content = body.bytes();
  return new ByteWriter()
    .u32(8 + content.length)
    .ascii(type)
    .raw(content)
    .bytes();
}

/** A box with a version byte and 24 bits of flags before its body. */
export function fullBox(type: string, version: number, flags: number, ...children: Uint8Array[]): Uint8Array {
  const header = new ByteWriter()
    .u8(version)
    .u8(flags >> 16)
    .u16(flags & 0xffff)
    .bytes();
  return box(type, header, ...children);
}

/** The identity transformation matrix of mvhd and tkhd. */
export const UNITY_MATRIX: readonly number[] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];
