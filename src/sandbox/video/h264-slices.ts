/**
 * The slices of the sandbox's H.264 streams, one per picture. The first picture is an IDR whose
 * macroblocks are all I_PCM (raw samples: exact, and no transform or entropy coder to get
 * wrong). Every later picture is a P slice that repeats the previous picture (P_Skip, zero
 * motion) except the macroblocks that changed, sent again as I_PCM.
 */
import { BitWriter } from './bit-writer.js';
import { LOG2_MAX_FRAME_NUM } from './h264-parameter-sets.js';
import { NAL_IDR_SLICE, NAL_SLICE, nalUnit } from './nal-unit.js';
import { chromaStride, lumaStride, type YuvFrame } from './yuv-frame.js';

const SLICE_TYPE_P = 5;
const SLICE_TYPE_I = 7;
/** I_PCM's `mb_type` in an I slice; in a P slice the intra types follow P's five. */
const MB_TYPE_I_PCM = 25;
const P_INTRA_OFFSET = 5;
const PCM_BYTES = 384;

function writeSliceHeader(w: BitWriter, idr: boolean, frameNum: number): void {
  w.ue(0); // first_mb_in_slice
  w.ue(idr ? SLICE_TYPE_I : SLICE_TYPE_P);
  w.ue(0); // pic_parameter_set_id
  w.u(LOG2_MAX_FRAME_NUM, frameNum % 2 ** LOG2_MAX_FRAME_NUM);
  if (idr) {
    w.ue(0); // idr_pic_id
  } else {
    w.flag(false); // num_ref_idx_active_override_flag
    w.flag(false); // ref_pic_list_modification_flag_l0
  }
  // dec_ref_pic_marking
  if (idr) {
    w.flag(false); // no_output_of_prior_pics_flag
    w.flag(false); // long_term_reference_flag
  } else {
    w.flag(false); // adaptive_ref_pic_marking_mode_flag: sliding window
  }
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off
}

/** Copies one macroblock's samples in PCM order: 256 luma, then 64 Cb, then 64 Cr, each row by row. */
function macroblockSamples(frame: YuvFrame, mbX: number, mbY: number, out: Uint8Array = new Uint8Array(PCM_BYTES)): Uint8Array {
  const ys = lumaStride(frame);
  const cs = chromaStride(frame);
  for (let row = 0; row < 16; row++) {
    const from = (mbY * 16 + row) * ys + mbX * 16;
    out.set(frame.y.subarray(from, from + 16), row * 16);
  }
  for (let row = 0; row < 8; row++) {
    const from = (mbY * 8 + row) * cs + mbX * 8;
    out.set(frame.u.subarray(from, from + 8), 256 + row * 8);
    out.set(frame.v.subarray(from, from + 8), 320 + row * 8);
  }
  return out;
}

function writePcmMacroblock(w: BitWriter, mbType: number, frame: YuvFrame, mbX: number, mbY: number, scratch: Uint8Array): void {
  w.ue(mbType);
  w.alignWithZeros();
  w.bytes(macroblockSamples(frame, mbX, mbY, scratch));
}

/** The IDR picture's NAL unit: every macroblock as I_PCM. */
export function writeIdrSlice(frame: YuvFrame): Uint8Array {
  const w = new BitWriter(frame.mbWidth * frame.mbHeight * (PCM_BYTES + 2) + 64);
  writeSliceHeader(w, true, 0);
  const scratch = new Uint8Array(PCM_BYTES);
  for (let mbY = 0; mbY < frame.mbHeight; mbY++) {
    for (let mbX = 0; mbX < frame.mbWidth; mbX++) writePcmMacroblock(w, MB_TYPE_I_PCM, frame, mbX, mbY, scratch);
  }
  return nalUnit(NAL_IDR_SLICE, 3, w.finish());
}

/**
 * A P picture's NAL unit: `changed(mbX, mbY)` says which macroblocks to send again; runs of the
 * others are skipped. All motion vectors are zero, so a skipped macroblock copies the previous picture.
 */
export function writePSlice(frame: YuvFrame, frameNum: number, changed: (mbX: number, mbY: number) => boolean): Uint8Array {
  const w = new BitWriter(4096);
  writeSliceHeader(w, false, frameNum);
  const scratch = new Uint8Array(PCM_BYTES);
  let skipRun = 0;
  for (let mbY = 0; mbY < frame.mbHeight; mbY++) {
    for (let mbX = 0; mbX < frame.mbWidth; mbX++) {
      if (!changed(mbX, mbY)) {
        skipRun++;
        continue;
      }
      w.ue(skipRun);
      skipRun = 0;
      writePcmMacroblock(w, P_INTRA_OFFSET + MB_TYPE_I_PCM, frame, mbX, mbY, scratch);
    }
  }
  if (skipRun > 0) w.ue(skipRun);
  return nalUnit(NAL_SLICE, 2, w.finish());
}
