/**
 * The settings of the S3-compatible media store (`media.s3` in the configuration, which
 * `config/media-store-settings.ts` reads and checks): declared here, beside the store that uses
 * them, since `media/` sits below `config/`.
 */
/** S3-compatible object storage for media (AWS S3, Cloudflare R2, MinIO, Ceph RGW, …). */
export interface MediaS3Settings {
  bucket: string;
  /** Signing region (`auto` for R2; any value for most self-hosted servers). */
  region: string;
  /** Endpoint URL of a non-AWS service; unset: AWS S3 in `region`. */
  endpoint?: string;
  /** Key prefix the gateway's objects live under (e.g. `gengate/media/`); may be empty. */
  prefix: string;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and Ceph usually need. */
  forcePathStyle: boolean;
  /** From GENGATE_S3_ACCESS_KEY_ID / GENGATE_S3_SECRET_ACCESS_KEY; unset: the AWS SDK's own chain (AWS_* variables, profiles, instance roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** When above 0, `/media/…` answers a redirect to a presigned URL valid this long instead of proxying the bytes. */
  presignSeconds: number;
  /** Whether the gateway deletes expired objects itself; false when a bucket lifecycle rule does it. */
  sweep: boolean;
  /** Deadline of one S3 call (and the idle limit of a transfer's socket). */
  timeoutMs: number;
}
