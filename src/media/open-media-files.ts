/**
 * Builds the media files backend `media.store` names — the local folder (default) or an
 * S3-compatible bucket — with its part of `/readyz`: the folder writable, or the bucket
 * answering a `HeadBucket` with these credentials.
 */
import { join } from 'node:path';
import { folderNotWritable } from './folder-writable.js';
import { LocalMediaStore } from './local-media-store.js';
import type { MediaFiles } from './media-store.js';
import type { MediaS3Settings } from './s3-settings.js';

/** `/readyz` gives each check a second; a bucket call left running is cut soon after. */
const READINESS_TIMEOUT_MS = 2_000;

export interface OpenedMediaFiles {
  files: MediaFiles;
  /** The readiness check: undefined when ready, else a reason (or it throws). */
  notReady(): Promise<string | undefined>;
}

/** The part of `media` settings that chooses and places the files. */
interface MediaFilesSettings {
  store: 'local' | 's3';
  dir?: string;
  retentionHours: number;
  s3?: MediaS3Settings;
}

export async function openMediaFiles(media: MediaFilesSettings, dataDir: string): Promise<OpenedMediaFiles> {
  const retentionMs = media.retentionHours * 3_600_000;
  if (media.store === 's3' && media.s3) {
    // The AWS SDK is loaded only by gateways that use a bucket.
    const [{ bucketNotReady, createS3Client }, { S3MediaStore }] = await Promise.all([import('./s3-client.js'), import('./s3-media-store.js')]);
    const { bucket, prefix, timeoutMs, presignSeconds, sweep } = media.s3;
    const client = createS3Client(media.s3);
    const files = new S3MediaStore({ client, bucket, prefix, retentionMs, timeoutMs, presignSeconds, sweep });
    return { files, notReady: () => bucketNotReady(client, bucket, Math.min(timeoutMs, READINESS_TIMEOUT_MS)) };
  }
  const dir = media.dir ?? join(dataDir, 'media');
  return { files: new LocalMediaStore(dir, retentionMs), notReady: () => folderNotWritable(dir) };
}
