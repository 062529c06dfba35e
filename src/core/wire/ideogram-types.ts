/**
 * Ideogram's wire format (the spec's imagegen2 family): the answer of its synchronous image
 * endpoints and the value lists of its 3.0 API, shared by the imagegen2 surface (which speaks
 * it to clients) and the ideogram provider (which speaks it upstream).
 */

/** One image of an answer; `url` is null when `is_image_safe` is false. */
export interface IdeogramImageObject {
  url?: string | null;
  /** The prompt used, which may differ from the one sent (Magic Prompt). */
  prompt: string;
  /** `WxH`, e.g. `1024x1024`. */
  resolution: string;
  is_image_safe: boolean;
  seed: number;
  style_type?: string;
  /** Not Ideogram's: the gateway's imagegen2 surface answers base64 here when asked for `b64_json`. */
  b64_json?: string;
}

export interface IdeogramImageResponse {
  /** ISO 8601 date-time. */
  created: string;
  data: IdeogramImageObject[];
}

/** Ideogram's error answers (FastAPI style): a message, or a list of validation problems. */
export interface IdeogramErrorBody {
  detail: string | Array<{ loc?: Array<string | number>; msg?: string; type?: string }>;
}

export const IDEOGRAM_RENDERING_SPEEDS = ['FLASH', 'TURBO', 'DEFAULT', 'QUALITY'] as const;
export const IDEOGRAM_STYLE_TYPES = ['AUTO', 'GENERAL', 'REALISTIC', 'DESIGN', 'FICTION'] as const;
export const IDEOGRAM_MAGIC_PROMPT_OPTIONS = ['AUTO', 'ON', 'OFF'] as const;

/** Ideogram 3.0's aspect ratios, written `W:H` (the API itself writes `WxH`). */
export const IDEOGRAM_ASPECT_RATIOS = ['1:3', '3:1', '1:2', '2:1', '9:16', '16:9', '10:16', '16:10', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '1:1'] as const;

/** Ideogram 3.0's output resolutions (`resolution` field of generate and remix). */
export const IDEOGRAM_RESOLUTIONS: ReadonlySet<string> = new Set([
  '512x1536',
  '576x1408',
  '576x1472',
  '576x1536',
  '640x1344',
  '640x1408',
  '640x1472',
  '640x1536',
  '704x1152',
  '704x1216',
  '704x1280',
  '704x1344',
  '704x1408',
  '704x1472',
  '736x1312',
  '768x1088',
  '768x1216',
  '768x1280',
  '768x1344',
  '800x1280',
  '832x960',
  '832x1024',
  '832x1088',
  '832x1152',
  '832x1216',
  '832x1248',
  '864x1152',
  '896x960',
  '896x1024',
  '896x1088',
  '896x1120',
  '896x1152',
  '960x832',
  '960x896',
  '960x1024',
  '960x1088',
  '1024x832',
  '1024x896',
  '1024x960',
  '1024x1024',
  '1088x768',
  '1088x832',
  '1088x896',
  '1088x960',
  '1120x896',
  '1152x704',
  '1152x832',
  '1152x864',
  '1152x896',
  '1216x704',
  '1216x768',
  '1216x832',
  '1248x832',
  '1280x704',
  '1280x768',
  '1280x800',
  '1312x736',
  '1344x640',
  '1344x704',
  '1344x768',
  '1408x576',
  '1408x640',
  '1408x704',
  '1472x576',
  '1472x640',
  '1472x704',
  '1536x512',
  '1536x576',
  '1536x640',
]);

/**
 * An aspect ratio as clients write it — `16:9`, Ideogram 3.0's `16x9` or the legacy
 * `ASPECT_16_9` — as `16:9`, or undefined when it is none of Ideogram's ratios.
 */
export function normalizeIdeogramAspectRatio(value: string): string | undefined {
  const match = /^(?:ASPECT_)?(\d+)[:x_](\d+)$/i.exec(value.trim());
  if (!match) return undefined;
  const ratio = `${Number(match[1])}:${Number(match[2])}`;
  return (IDEOGRAM_ASPECT_RATIOS as readonly string[]).includes(ratio) ? ratio : undefined;
}
