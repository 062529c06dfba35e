/**
 * A tiny MP4 a fake video upstream serves: `ftyp` (isom), `moov` with a version-0 `mvhd` that
 * says the duration, and a `free` box carrying a label so each task's file differs. No media
 * tracks: it sniffs and parses as MP4 (bytes 4–7 are `ftyp`), which is all the gateway checks.
 */

const TIMESCALE = 1000;
const MAX_LABEL_BYTES = 256;

export function fakeMp4(seconds: number, label: string): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41')]));
  const mvhd = Buffer.alloc(100);
  // version 0, flags 0; creation and modification times 0.
  mvhd.writeUInt32BE(TIMESCALE, 12);
  mvhd.writeUInt32BE(Math.round(seconds * TIMESCALE), 16);
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  // unity matrix at 36: a, b, u, c, d, v, x, y, w
  const matrix = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000];
  matrix.forEach((value, i) => mvhd.writeUInt32BE(value, 36 + i * 4));
  mvhd.writeUInt32BE(2, 96); // next track id
  const moov = box('moov', box('mvhd', mvhd));
  const free = box('free', Buffer.from(label).subarray(0, MAX_LABEL_BYTES));
  return Buffer.concat([ftyp, moov, free]);
}

function box(type: string, payload: Buffer): Buffer {
  return Buffer.concat([u32(8 + payload.length), Buffer.from(type, 'latin1'), payload]);
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
