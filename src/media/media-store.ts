/**
 * Where the gateway keeps media it hands out by URL (image results now, videos later):
 * upstream URLs expire within minutes to hours, so clients get the gateway's own links.
 * Names are unguessable (190 random bits) and expire after the configured retention.
 * `LocalMediaStore` is the embedded default; `S3MediaStore` (S3-compatible object storage)
 * implements the same interface for replicas that share their media.
 */
import type { Readable } from 'node:stream';

export interface StoredMedia {
  /** The whole file, or the asked byte range of it. */
  body: Readable;
  mediaType: string;
  /** Size of the whole file. */
  size: number;
  /** When the link stops working (Unix ms). */
  expiresAt: number;
}

/** Inclusive byte range, already checked against the file's size. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StreamedMedia {
  name: string;
  mediaType: string;
  bytes: number;
  /** Hex SHA-256 of the content (an ETag that survives restarts and replicas). */
  sha256: string;
}

/** The files themselves (the local disk, or object storage): no owners, no quotas. */
export interface MediaFiles {
  /** Stores bytes; resolves the public file name (`<id>.<ext>`). */
  put(data: Uint8Array, mediaType: string): Promise<string>;
  /**
   * Stores a stream without holding it in memory (videos): written to a temporary file while
   * hashed, then renamed into place. `sniff` names the media type from the first bytes; a
   * stream it does not recognise is refused before anything is kept.
   */
  putStream(body: Readable, sniff: (head: Uint8Array) => string | undefined): Promise<StreamedMedia>;
  /** Opens a stored file by name (a byte range of it when asked); undefined when unknown, malformed or expired. */
  open(name: string, range?: ByteRange): Promise<StoredMedia | undefined>;
  /** Deletes one file now (a client deleted what it belonged to). */
  remove(name: string): Promise<void>;
  /**
   * A short-lived link to the file in the backend itself, valid until `expiresAt` at most, for
   * backends that can sign one (object storage with `media.s3.presignSeconds`); undefined: serve the bytes.
   */
  presignedUrl?(name: string, expiresAt: number): Promise<string | undefined>;
  /** Deletes expired files; resolves how many went. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The media store the gateway uses: every file is written for an owner (`mediaOwner`), whose
 * quotas it counts against (`media.quotaBytesPerAccount`, `media.dailyBytesPerAccount`), within
 * the store's global cap (`media.maxTotalBytes`). A full quota is an `insufficient_quota` error.
 */
export interface MediaStore extends Omit<MediaFiles, 'put' | 'putStream'> {
  put(data: Uint8Array, mediaType: string, owner: string): Promise<string>;
  putStream(body: Readable, sniff: (head: Uint8Array) => string | undefined, owner: string): Promise<StreamedMedia>;
  /** Throws the quota error when `owner` has no room for `bytes` more: checked before an upstream is called. */
  checkRoom(owner: string, bytes: number): Promise<void>;
}

/** Whose quotas a file counts against: the key's account, or the key itself when it has none (operator keys, the master key). */
export function mediaOwner(accountId: string | null | undefined, keyId: string): string {
  return accountId ?? `key:${keyId}`;
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
