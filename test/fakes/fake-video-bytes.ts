/**
 * The result file fake video upstreams serve: a tiny MP4-shaped file, an `ftyp` box (so bytes
 * 4–7 read `ftyp`, as media sniffers check) and a `free` box naming the job, so that each job's
 * bytes differ and a download can be compared byte for byte with what the fake made.
 */
export function fakeVideoBytes(jobId: string): Buffer {
  const ftyp = Buffer.concat([u32(24), Buffer.from('ftypisom'), u32(0x200), Buffer.from('isomiso2')]);
  const note = Buffer.from(`fake video ${jobId}`.slice(0, 200));
  const free = Buffer.concat([u32(8 + note.length), Buffer.from('free'), note]);
  return Buffer.concat([ftyp, free]);
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
