/**
 * The sequence and picture parameter sets of the sandbox's H.264 streams: Constrained Baseline,
 * CAVLC, one reference frame, picture order from `frame_num` (no B frames), cropping to the
 * visible size, BT.709 limited range, and the deblocking filter switchable off per slice (the
 * slices turn it off, so decoded pictures are exactly the PCM samples and the copies of them).
 */
import { BitWriter } from './bit-writer.js';

const PROFILE_BASELINE = 66;
/** `log2_max_frame_num`: frame numbers count to 65 535 before wrapping. */
export const LOG2_MAX_FRAME_NUM = 16;

/** Levels by the most macroblocks a frame may have (Table A-1), smallest first. */
const LEVELS: ReadonlyArray<{ idc: number; maxFrameMbs: number }> = [
  { idc: 30, maxFrameMbs: 1_620 },
  { idc: 31, maxFrameMbs: 3_600 },
  { idc: 32, maxFrameMbs: 5_120 },
  { idc: 40, maxFrameMbs: 8_192 },
  { idc: 50, maxFrameMbs: 22_080 },
  { idc: 51, maxFrameMbs: 36_864 },
];

/** The lowest level whose frame size limit takes the picture (the frame rate is far below every limit). */
function levelFor(mbWidth: number, mbHeight: number): number {
  const mbs = mbWidth * mbHeight;
  const level = LEVELS.find((l) => mbs <= l.maxFrameMbs && mbWidth ** 2 <= 8 * l.maxFrameMbs && mbHeight ** 2 <= 8 * l.maxFrameMbs);
  if (!level) throw new RangeError(`${mbWidth}x${mbHeight} macroblocks exceed every H.264 level`);
  return level.idc;
}

interface StreamGeometry {
  width: number;
  height: number;
  mbWidth: number;
  mbHeight: number;
}

export function writeSps(geometry: StreamGeometry): Uint8Array {
  const { width, height, mbWidth, mbHeight } = geometry;
  const w = new BitWriter(64);
  w.u(8, PROFILE_BASELINE);
  // constraint_set0 and set1: Constrained Baseline, which every decoder takes.
  w.u(8, 0b1100_0000);
  w.u(8, levelFor(mbWidth, mbHeight));
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4);
  w.ue(2); // pic_order_cnt_type: output order is decoding order
  w.ue(1); // max_num_ref_frames
  w.flag(false); // gaps_in_frame_num_value_allowed_flag
  w.ue(mbWidth - 1);
  w.ue(mbHeight - 1);
  w.flag(true); // frame_mbs_only_flag
  w.flag(true); // direct_8x8_inference_flag
  const cropRight = (mbWidth * 16 - width) / 2;
  const cropBottom = (mbHeight * 16 - height) / 2;
  const cropped = cropRight > 0 || cropBottom > 0;
  w.flag(cropped);
  if (cropped) {
    // In units of two samples for 4:2:0 frames.
    w.ue(0);
    w.ue(cropRight);
    w.ue(0);
    w.ue(cropBottom);
  }
  w.flag(true); // vui_parameters_present_flag
  writeVui(w);
  return w.finish();
}

function writeVui(w: BitWriter): void {
  w.flag(false); // aspect_ratio_info_present_flag: square pixels
  w.flag(false); // overscan_info_present_flag
  w.flag(true); // video_signal_type_present_flag
  w.u(3, 5); // video_format: unspecified
  w.flag(false); // video_full_range_flag: limited range
  w.flag(true); // colour_description_present_flag
  w.u(8, 1); // colour_primaries: BT.709
  w.u(8, 1); // transfer_characteristics: BT.709
  w.u(8, 1); // matrix_coefficients: BT.709
  w.flag(false); // chroma_loc_info_present_flag
  w.flag(false); // timing_info_present_flag: the MP4 carries the timing
  w.flag(false); // nal_hrd_parameters_present_flag
  w.flag(false); // vcl_hrd_parameters_present_flag
  w.flag(false); // pic_struct_present_flag
  w.flag(true); // bitstream_restriction_flag: tells decoders not to wait for reordering
  w.flag(true); // motion_vectors_over_pic_boundaries_flag
  w.ue(0); // max_bytes_per_pic_denom: no limit
  w.ue(0); // max_bits_per_mb_denom: no limit (PCM macroblocks are 3 072 bits)
  w.ue(15); // log2_max_mv_length_horizontal
  w.ue(15); // log2_max_mv_length_vertical
  w.ue(0); // max_num_reorder_frames
  w.ue(1); // max_dec_frame_buffering
}

export function writePps(): Uint8Array {
  const w = new BitWriter(16);
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.flag(false); // entropy_coding_mode_flag: CAVLC
  w.flag(false); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.flag(false); // weighted_pred_flag
  w.u(2, 0); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.flag(true); // deblocking_filter_control_present_flag
  w.flag(false); // constrained_intra_pred_flag
  w.flag(false); // redundant_pic_cnt_present_flag
  return w.finish();
}
