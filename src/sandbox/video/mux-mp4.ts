/**
 * Muxes one H.264 track into an MP4 with the index first (`ftyp`, `moov`, then `mdat`), so a
 * player can start before it has the whole file. Samples are length-prefixed NAL units; the
 * parameter sets ride in the `avcC` box. All samples sit in one chunk, each lasting one frame.
 */
import { box, ByteWriter, fullBox, UNITY_MATRIX } from './mp4-box.js';

interface Mp4Track {
  width: number;
  height: number;
  /** Frames per second (whole). */
  fps: number;
  sps: Uint8Array;
  pps: Uint8Array;
  /** One sample per frame: its NAL units, each with a 4-byte length. */
  samples: Uint8Array[];
  /** 1-based numbers of the samples a decoder can start from. */
  syncSamples: number[];
}

/** Media ticks per second: a multiple of every frame rate the sandbox uses. */
const TIMESCALE = 12_000;
const MOVIE_TIMESCALE = 1_000;
const HEADER_DATE = 0;

/** Prefixes each NAL unit with its length (4 bytes): one MP4 sample. */
export function lengthPrefixed(nalUnits: Uint8Array[]): Uint8Array {
  const w = new ByteWriter();
  for (const unit of nalUnits) w.u32(unit.length).raw(unit);
  return w.bytes();
}

function matrix(w: ByteWriter): ByteWriter {
  for (const value of UNITY_MATRIX) w.u32(value);
  return w;
}

function mvhd(durationMs: number): Uint8Array {
  const w = new ByteWriter().u32(HEADER_DATE).u32(HEADER_DATE).u32(MOVIE_TIMESCALE).u32(durationMs);
  w.u32(0x0001_0000).u16(0x0100).zeros(10); // rate 1.0, volume 1.0, reserved
  matrix(w).zeros(24); // pre_defined
  w.u32(2); // next_track_ID
  return fullBox('mvhd', 0, 0, w.bytes());
}

function tkhd(track: Mp4Track, durationMs: number): Uint8Array {
  const w = new ByteWriter().u32(HEADER_DATE).u32(HEADER_DATE).u32(1).zeros(4).u32(durationMs);
  w.zeros(8).u16(0).u16(0).u16(0).zeros(2); // reserved, layer, alternate_group, volume, reserved
  matrix(w)
    .u32(track.width * 0x1_0000)
    .u32(track.height * 0x1_0000);
  return fullBox('tkhd', 0, 0x000003, w.bytes()); // enabled, in the movie
}

function mdhd(durationTicks: number): Uint8Array {
  // Language "und", packed as three 5-bit letters.
  const und = (('u'.charCodeAt(0) - 0x60) << 10) | (('n'.charCodeAt(0) - 0x60) << 5) | ('d'.charCodeAt(0) - 0x60);
  const w = new ByteWriter().u32(HEADER_DATE).u32(HEADER_DATE).u32(TIMESCALE).u32(durationTicks).u16(und).u16(0);
  return fullBox('mdhd', 0, 0, w.bytes());
}

function hdlr(): Uint8Array {
  const w = new ByteWriter().u32(0).ascii('vide').zeros(12).ascii('VideoHandler').u8(0);
  return fullBox('hdlr', 0, 0, w.bytes());
}

function avcC(track: Mp4Track): Uint8Array {
  const w = new ByteWriter().u8(1).u8(track.sps[1]).u8(track.sps[2]).u8(track.sps[3]);
  w.u8(0xff); // 4-byte NAL lengths
  w.u8(0xe1).u16(track.sps.length).raw(track.sps); // one SPS
  w.u8(1).u16(track.pps.length).raw(track.pps); // one PPS
  return box('avcC', w.bytes());
}

function avc1(track: Mp4Track): Uint8Array {
  const w = new ByteWriter().zeros(6).u16(1); // reserved, data_reference_index
  w.zeros(16).u16(track.width).u16(track.height);
  w.u32(0x0048_0000).u32(0x0048_0000).zeros(4).u16(1); // 72 dpi, reserved, frame_count
  w.zeros(32).u16(0x0018).u16(0xffff); // compressorname, depth, pre_defined −1
  return box('avc1', w.bytes(), avcC(track));
}

function stbl(track: Mp4Track, mdatDataOffset: number): Uint8Array {
  const count = track.samples.length;
  const stsd = fullBox('stsd', 0, 0, new ByteWriter().u32(1).bytes(), avc1(track));
  const stts = fullBox(
    'stts',
    0,
    0,
    new ByteWriter()
      .u32(1)
      .u32(count)
      .u32(TIMESCALE / track.fps)
      .bytes(),
  );
  const sync = new ByteWriter().u32(track.syncSamples.length);
  for (const n of track.syncSamples) sync.u32(n);
  const stss = fullBox('stss', 0, 0, sync.bytes());
  const stsc = fullBox('stsc', 0, 0, new ByteWriter().u32(1).u32(1).u32(count).u32(1).bytes());
  const sizes = new ByteWriter().u32(0).u32(count);
  for (const sample of track.samples) sizes.u32(sample.length);
  const stsz = fullBox('stsz', 0, 0, sizes.bytes());
  const stco = fullBox('stco', 0, 0, new ByteWriter().u32(1).u32(mdatDataOffset).bytes());
  return box('stbl', stsd, stts, stss, stsc, stsz, stco);
}

function moov(track: Mp4Track, mdatDataOffset: number): Uint8Array {
  const ticks = track.samples.length * (TIMESCALE / track.fps);
  const durationMs = Math.round((ticks * MOVIE_TIMESCALE) / TIMESCALE);
  const vmhd = fullBox('vmhd', 0, 1, new ByteWriter().zeros(8).bytes());
  const dinf = box('dinf', fullBox('dref', 0, 0, new ByteWriter().u32(1).bytes(), fullBox('url ', 0, 1)));
  const minf = box('minf', vmhd, dinf, stbl(track, mdatDataOffset));
  const trak = box('trak', tkhd(track, durationMs), box('mdia', mdhd(ticks), hdlr(), minf));
  return box('moov', mvhd(durationMs), trak);
}

export function muxMp4(track: Mp4Track): Uint8Array {
  if (!Number.isInteger(TIMESCALE / track.fps)) throw new RangeError(`frame rate ${track.fps} does not divide the timescale`);
  const ftyp = box('ftyp', new ByteWriter().ascii('isom').u32(0x200).ascii('isomiso2avc1mp41').bytes());
  const mdatSize = 8 + track.samples.reduce((sum, s) => sum + s.length, 0);
  if (mdatSize > 0xffff_ffff) throw new RangeError('the video is too large for a 32-bit mdat');
  // The chunk offset does not change moov's size, so measure it with a placeholder first.
  const moovSize = moov(track, 0).length;
  const index = moov(track, ftyp.length + moovSize + 8);
  const mdatHeader = new ByteWriter().u32(mdatSize).ascii('mdat').bytes();
  const out = new ByteWriter().raw(ftyp).raw(index).raw(mdatHeader);
  for (const sample of track.samples) out.raw(sample);
  return out.bytes();
}
