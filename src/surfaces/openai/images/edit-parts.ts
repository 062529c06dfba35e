/** What an edit request carried, before its images are decoded or fetched: the same for JSON and multipart. */
import type { Json } from '../../../core/validate.js';

export type EditImageSource =
  /** An uploaded file. */
  | { kind: 'bytes'; data: Uint8Array; filename?: string; param: string }
  /** An http(s) URL, a `data:` URL or bare base64. */
  | { kind: 'string'; value: string; param: string };

export interface EditParts {
  /** The other fields (`model`, `prompt`, `n`, `size`, …), typed as in JSON. */
  fields: Json;
  images: EditImageSource[];
  /** The field that carried the images, for errors about all of them (`image` or `images`). */
  imagesParam: string;
  mask?: EditImageSource;
}

/** Edits take at most this many images. */
export const MAX_EDIT_IMAGES = 16;
