/**
 * Media in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph RGW), so that every
 * replica serves what any of them wrote. Objects are named like the local store's files
 * (`<prefix><32 alphanumerics>.<ext>`), written once and never changed; an object's
 * `LastModified` decides its expiry, as a file's mtime does on disk. Streams (videos) go up as a
 * multipart upload of a few parts at a time, hashed on the way, never held whole in memory.
 * `open` asks only for the object's head; the bytes (or the asked range) are fetched when the
 * body is first read, so a `304`, a `HEAD` or a redirect costs no download. Every call has a
 * deadline; a transfer's socket has an idle limit (set on the client, `createS3Client`).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomId } from '../core/ids.js';
import { type ByteRange, MEDIA_EXTENSIONS, MEDIA_NAME, MEDIA_TYPES, type MediaFiles, type StoredMedia, type StreamedMedia } from './media-store.js';

/** S3's smallest part but the last; with two parts in flight a stream holds about 10 MiB at most. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** Keys per ListObjectsV2 page and per DeleteObjects call (both S3's maximum). */
const BATCH = 1000;
/** Pages one sweep reads at most (a million objects); the next sweep goes on. */
const MAX_SWEEP_PAGES = 1000;

export interface S3MediaStoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix, empty or ending in `/`. */
  prefix: string;
  retentionMs: number;
  /** Deadline of one call that moves no body (head, put of a small file, list, delete). */
  timeoutMs: number;
  /** Above 0: `presignedUrl` answers links valid this long. */
  presignSeconds: number;
  /** false: expiry is left to the bucket's lifecycle rule, `sweep` deletes nothing. */
  sweep: boolean;
}

export class S3MediaStore implements MediaFiles {
  constructor(private readonly options: S3MediaStoreOptions) {}

  async put(data: Uint8Array, mediaType: string): Promise<string> {
    const extension = MEDIA_EXTENSIONS[mediaType];
    if (!extension) throw new Error(`media store: unsupported media type ${mediaType}`);
    const name = `${randomId(32)}.${extension}`;
    const { client, bucket } = this.options;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: this.key(name), Body: data, ContentType: mediaType }), { abortSignal: this.deadline() });
    return name;
  }

  async putStream(body: Readable, sniff: (head: Uint8Array) => string | undefined): Promise<StreamedMedia> {
    const chunks: AsyncIterator<Buffer> = body[Symbol.asyncIterator]();
    const first = await chunks.next();
    if (first.done) throw new Error('media store: the stream was empty');
    const mediaType = sniff(first.value);
    const extension = mediaType ? MEDIA_EXTENSIONS[mediaType] : undefined;
    if (!mediaType || !extension) {
      // Destroyed with the error, as a failed pipeline would: whoever feeds the stream stops too.
      const refused = new Error('media store: the stream is not a supported media type');
      body.destroy(refused);
      throw refused;
    }
    const hash = createHash('sha256');
    let bytes = 0;
    let sourceError: unknown;
    async function* hashed(): AsyncGenerator<Buffer> {
      try {
        for (let next: IteratorResult<Buffer> = first; !next.done; next = await chunks.next()) {
          hash.update(next.value);
          bytes += next.value.length;
          yield next.value;
        }
      } catch (error) {
        sourceError = error;
        throw error;
      }
    }
    const name = `${randomId(32)}.${extension}`;
    const upload = new Upload({
      client: this.options.client,
      params: { Bucket: this.options.bucket, Key: this.key(name), Body: Readable.from(hashed(), { objectMode: false }), ContentType: mediaType },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The source's own error (a quota, an upstream failure) says more than the upload's.
      const reason = sourceError ?? error;
      if (!body.destroyed) body.destroy(reason as Error);
      throw reason;
    }
    return { name, mediaType, bytes, sha256: hash.digest('hex') };
  }

  async open(name: string, range?: ByteRange): Promise<StoredMedia | undefined> {
    if (!MEDIA_NAME.test(name)) return undefined;
    const { client, bucket, retentionMs } = this.options;
    let head: { ContentLength?: number; LastModified?: Date };
    try {
      head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: this.key(name) }), { abortSignal: this.deadline() });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const expiresAt = (head.LastModified?.getTime() ?? 0) + retentionMs;
    if (expiresAt <= Date.now()) return undefined;
    const extension = name.slice(name.lastIndexOf('.') + 1);
    return {
      body: Readable.from(this.download(name, range), { objectMode: false }),
      mediaType: MEDIA_TYPES[extension],
      size: head.ContentLength ?? 0,
      expiresAt,
    };
  }

  /** A link to the object itself, valid `presignSeconds` (less when the object expires sooner); undefined when presigning is off. */
  async presignedUrl(name: string, expiresAt: number): Promise<string | undefined> {
    const { client, bucket, presignSeconds } = this.options;
    if (presignSeconds <= 0 || !MEDIA_NAME.test(name)) return undefined;
    const seconds = Math.min(presignSeconds, Math.floor((expiresAt - Date.now()) / 1000));
    if (seconds < 1) return undefined;
    return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: this.key(name) }), { expiresIn: seconds });
  }

  async remove(name: string): Promise<void> {
    if (!MEDIA_NAME.test(name)) return;
    await this.options.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(name) }), { abortSignal: this.deadline() });
  }

  async sweep(): Promise<number> {
    const { client, bucket, prefix, retentionMs, sweep } = this.options;
    if (!sweep) return 0;
    const cutoff = Date.now() - retentionMs;
    let removed = 0;
    let token: string | undefined;
    for (let page = 0; page < MAX_SWEEP_PAGES; page++) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: BATCH, ContinuationToken: token }), {
        abortSignal: this.deadline(),
      });
      const expired = (listed.Contents ?? [])
        .filter((object) => object.Key && MEDIA_NAME.test(object.Key.slice(prefix.length)) && (object.LastModified?.getTime() ?? 0) <= cutoff)
        .map((object) => ({ Key: object.Key as string }));
      if (expired.length > 0) removed += await this.deleteMany(expired);
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
      if (!token) break;
    }
    return removed;
  }

  async close(): Promise<void> {
    this.options.client.destroy();
  }

  /** The object's bytes (or the range): asked for only when the body is first read. */
  private async *download(name: string, range?: ByteRange): AsyncGenerator<Uint8Array> {
    const { client, bucket, timeoutMs } = this.options;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`media store: the bucket did not answer within ${timeoutMs} ms`)), timeoutMs);
    let answer: GetObjectCommandOutput;
    try {
      answer = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: this.key(name), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        { abortSignal: abort.signal },
      );
    } finally {
      clearTimeout(timer);
    }
    const stream = answer.Body as Readable;
    try {
      for await (const chunk of stream) yield chunk as Uint8Array;
    } finally {
      stream.destroy();
    }
  }

  private async deleteMany(objects: Array<{ Key: string }>): Promise<number> {
    const { client, bucket } = this.options;
    const answer = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }), { abortSignal: this.deadline() });
    return objects.length - (answer.Errors?.length ?? 0);
  }

  private key(name: string): string {
    return `${this.options.prefix}${name}`;
  }

  private deadline(): AbortSignal {
    return AbortSignal.timeout(this.options.timeoutMs);
  }
}

function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const name = (error as { name?: string }).name;
  return status === 404 || name === 'NotFound' || name === 'NoSuchKey';
}
