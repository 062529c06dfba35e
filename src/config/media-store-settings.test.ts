import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';
import { loadConfig } from './load-config.js';

function load(yaml: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-config-'));
  const path = join(dir, 'gengate.yaml');
  writeFileSync(path, yaml);
  return loadConfig({ providers: PROVIDER_DESCRIPTORS, env, configPath: path }).media;
}

describe('media.store and media.s3', () => {
  it('keeps media in the local folder unless told otherwise', () => {
    const media = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).media;
    expect(media.store).toBe('local');
    expect(media.s3).toBeUndefined();
  });

  it('reads a bucket from the file with defaults for the rest, and credentials from the gateway variables', () => {
    const media = load(
      'media:\n  store: s3\n  s3:\n    bucket: shared-media\n    endpoint: http://minio.internal:9000/\n    forcePathStyle: true\n    prefix: gengate/media\n',
      {
        GENGATE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        GENGATE_S3_SECRET_ACCESS_KEY: 'secret-example',
      },
    );
    expect(media.store).toBe('s3');
    expect(media.s3).toEqual({
      bucket: 'shared-media',
      region: 'us-east-1',
      endpoint: 'http://minio.internal:9000',
      prefix: 'gengate/media/',
      forcePathStyle: true,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret-example',
      presignSeconds: 0,
      sweep: true,
      timeoutMs: 15_000,
    });
  });

  it('can be set from the environment alone, leaving credentials to the AWS SDK when the gateway variables are unset', () => {
    const media = load('', { GENGATE_MEDIA_STORE: 's3', GENGATE_S3_BUCKET: 'from-env', GENGATE_S3_REGION: 'auto', GENGATE_S3_PREFIX: '' });
    expect(media.s3).toMatchObject({ bucket: 'from-env', region: 'auto', prefix: '', accessKeyId: undefined, secretAccessKey: undefined });
  });

  it('refuses what it cannot use, naming the setting', () => {
    expect(() => load('media:\n  store: gcs\n')).toThrow(/media.store must be "local" or "s3"/);
    expect(() => load('media:\n  store: s3\n')).toThrow(/no bucket is set/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n    endpoint: minio:9000\n')).toThrow(/media.s3.endpoint must be/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n    presignSeconds: 1000000\n')).toThrow(
      /media.s3.presignSeconds must be a whole number from 0 to 604800/,
    );
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n    sweep: "no"\n')).toThrow(/media.s3.sweep must be true or false/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n    bukket: typo\n')).toThrow(/media.s3.bukket is not a setting/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n    prefix: /abs\n')).toThrow(/media.s3.prefix/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: "../x"\n')).toThrow(/not a bucket name/);
    expect(() => load('media:\n  store: s3\n  s3:\n    bucket: b1b\n', { GENGATE_S3_ACCESS_KEY_ID: 'only-half' })).toThrow(/set both GENGATE_S3_ACCESS_KEY_ID/);
  });
});
