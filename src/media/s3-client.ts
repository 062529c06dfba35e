/**
 * The S3 client of the media store, from `media.s3`: explicit credentials when the gateway's own
 * variables set them, else the AWS SDK's chain (AWS_* variables, shared profiles, instance and
 * container roles). Sockets have a connect deadline and an idle limit, so a bucket that stops
 * answering mid-transfer fails the transfer instead of holding it. Also the bucket's `/readyz` check.
 */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { MediaS3Settings } from './s3-settings.js';

export function createS3Client(settings: MediaS3Settings): S3Client {
  const { accessKeyId, secretAccessKey } = settings;
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: Math.min(settings.timeoutMs, 5_000), requestTimeout: settings.timeoutMs },
  });
}

/** Undefined when the bucket exists and these credentials may reach it; throws (a reason) otherwise. */
export async function bucketNotReady(client: S3Client, bucket: string, timeoutMs: number): Promise<string | undefined> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return undefined;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404) return `bucket ${bucket} does not exist`;
    if (status === 403) return `access to bucket ${bucket} is denied`;
    throw error;
  }
}
