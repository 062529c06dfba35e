/**
 * Where the gateway keeps media it hands out by URL (image results now, videos later):
 * upstream URLs expire within minutes to hours, so clients get the gateway's own links.
 * Names are unguessable (190 random bits) and expire after the configured retention.
 * `LocalMediaStore` is the embedded default; a shared backend (object storage) implements the
 * same interface for scale-out.
 */
import type { Readable } from 'node:stream';

export interface StoredMedia {
  body: Readable;
  mediaType: string;
  size: number;
  /** When the link stops working (Unix ms). */
  expiresAt: number;
}

export interface MediaStore {
  /** Stores bytes; resolves the public file name (`<id>.<ext>`). */
  put(data: Uint8Array, mediaType: string): Promise<string>;
  /** Opens a stored file by name; undefined when unknown, malformed or expired. */
  open(name: string): Promise<StoredMedia | undefined>;
  /** Deletes expired files; resolves how many went. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

export const MEDIA_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
};

export const MEDIA_TYPES: Record<string, string> = Object.fromEntries(Object.entries(MEDIA_EXTENSIONS).map(([type, ext]) => [ext, type]));

/** `<32 alphanumerics>.<known extension>`: anything else is refused before touching the disk. */
export const MEDIA_NAME = /^[A-Za-z0-9]{32}\.(png|jpg|webp|gif|mp4)$/;
