/**
 * Reads and checks which media store the gateway uses (`media.store`) and, for object storage,
 * the bucket settings (`media.s3`): the YAML values, then the environment (GENGATE_MEDIA_STORE,
 * GENGATE_S3_BUCKET, GENGATE_S3_REGION, GENGATE_S3_ENDPOINT, GENGATE_S3_PREFIX and the two
 * credential variables GENGATE_S3_ACCESS_KEY_ID / GENGATE_S3_SECRET_ACCESS_KEY). Anything
 * malformed is a `ConfigError` naming the setting, so a bad bucket setting stops the start.
 */
import type { Env } from './channels-from-env.js';
import { ConfigError } from './config-error.js';
import type { MediaS3Settings, MediaSettings } from './types.js';

const S3_DEFAULTS = { region: 'us-east-1', prefix: 'media/', forcePathStyle: false, presignSeconds: 0, sweep: true, timeoutMs: 15_000 };
/** The longest a SigV4 presigned URL may be valid (seven days). */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
/** The characters S3 documents as safe in object keys. */
const SAFE_KEY_CHARACTERS = /^[A-Za-z0-9!_.*'()/-]+$/;
const S3_KEYS = new Set(['bucket', 'region', 'endpoint', 'prefix', 'forcePathStyle', 'accessKeyId', 'secretAccessKey', 'presignSeconds', 'sweep', 'timeoutMs']);
/** S3 bucket names: 3–63 lowercase letters, digits, dots and hyphens (older buckets may hold capitals and underscores). */
const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

/** Resolves `media.store` and `media.s3` in place of what the file said. */
export function resolveMediaStoreSettings(media: MediaSettings, env: Env): Pick<MediaSettings, 'store' | 's3'> {
  const store = env.GENGATE_MEDIA_STORE || media.store;
  if (store !== 'local' && store !== 's3') throw new ConfigError(`media.store must be "local" or "s3", got ${JSON.stringify(store)}`);
  const raw = media.s3 as unknown;
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw new ConfigError('media.s3 must be a mapping');
  const file = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(file)) {
    if (!S3_KEYS.has(key)) throw new ConfigError(`media.s3.${key} is not a setting (known: ${[...S3_KEYS].join(', ')})`);
  }
  if (store === 'local') return { store, s3: undefined };
  const s3: MediaS3Settings = {
    bucket: text(env.GENGATE_S3_BUCKET || file.bucket, 'bucket') ?? '',
    region: text(env.GENGATE_S3_REGION || file.region, 'region') ?? S3_DEFAULTS.region,
    endpoint: endpoint(env.GENGATE_S3_ENDPOINT || file.endpoint),
    prefix: prefix(env.GENGATE_S3_PREFIX ?? file.prefix),
    forcePathStyle: flag(file.forcePathStyle, 'forcePathStyle') ?? S3_DEFAULTS.forcePathStyle,
    accessKeyId: text(env.GENGATE_S3_ACCESS_KEY_ID || file.accessKeyId, 'accessKeyId'),
    secretAccessKey: text(env.GENGATE_S3_SECRET_ACCESS_KEY || file.secretAccessKey, 'secretAccessKey'),
    presignSeconds: whole(file.presignSeconds, 'presignSeconds', 0, MAX_PRESIGN_SECONDS) ?? S3_DEFAULTS.presignSeconds,
    sweep: flag(file.sweep, 'sweep') ?? S3_DEFAULTS.sweep,
    timeoutMs: whole(file.timeoutMs, 'timeoutMs', 1, 600_000) ?? S3_DEFAULTS.timeoutMs,
  };
  if (!s3.bucket) throw new ConfigError('media.store is "s3" but no bucket is set (media.s3.bucket or GENGATE_S3_BUCKET)');
  if (!BUCKET_NAME.test(s3.bucket)) throw new ConfigError(`media.s3.bucket ${JSON.stringify(s3.bucket)} is not a bucket name`);
  if ((s3.accessKeyId === undefined) !== (s3.secretAccessKey === undefined)) {
    throw new ConfigError(
      'media.s3: set both GENGATE_S3_ACCESS_KEY_ID and GENGATE_S3_SECRET_ACCESS_KEY, or neither (then the AWS SDK finds credentials itself)',
    );
  }
  return { store, s3 };
}

function text(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(`media.s3.${key} must be a string`);
  return value;
}

function flag(value: unknown, key: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ConfigError(`media.s3.${key} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function whole(value: unknown, key: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`media.s3.${key} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function endpoint(value: unknown): string | undefined {
  const url = text(value, 'endpoint');
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`media.s3.endpoint must be a URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`media.s3.endpoint must be an http or https URL, got ${JSON.stringify(url)}`);
  return url.replace(/\/+$/, '');
}

/** Empty, or path segments ending in `/`; a missing trailing slash is added. */
function prefix(value: unknown): string {
  if (value === undefined || value === null) return S3_DEFAULTS.prefix;
  if (typeof value !== 'string') throw new ConfigError('media.s3.prefix must be a string');
  if (value === '') return '';
  const withSlash = value.endsWith('/') ? value : `${value}/`;
  if (withSlash.startsWith('/') || withSlash.includes('//') || withSlash.length > 512 || !SAFE_KEY_CHARACTERS.test(withSlash)) {
    throw new ConfigError(`media.s3.prefix ${JSON.stringify(value)} must be relative path segments like "gengate/media/"`);
  }
  return withSlash;
}
