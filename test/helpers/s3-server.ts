/**
 * A local S3-compatible server for tests: s3rver (a devDependency from the npm registry) in a
 * child process (`run-s3rver.cjs`) on a free port of 127.0.0.1, keeping its buckets in a
 * temporary folder, with one bucket made. `settings` is a `media.s3` block pointing at it;
 * `objectPath` names the file behind an object, so a test can age it (s3rver reports the
 * file's mtime as `LastModified`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MediaS3Settings } from '../../src/config/types.js';

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';
const STARTUP_MS = 15_000;

export interface RunningS3Server {
  endpoint: string;
  bucket: string;
  settings: MediaS3Settings;
  objectPath(key: string): string;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'gengate-media'): Promise<RunningS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'gengate-s3-'));
  const script = fileURLToPath(new URL('./run-s3rver.cjs', import.meta.url));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, directory, bucket], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start')), STARTUP_MS);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(\d+)\n/.exec(out);
      if (line) {
        clearTimeout(timer);
        resolve(Number(line[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: {
      bucket,
      region: 'us-east-1',
      endpoint,
      prefix: 'media/',
      forcePathStyle: true,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: ACCESS_KEY,
      presignSeconds: 0,
      sweep: true,
      timeoutMs: 10_000,
    },
    objectPath: (key) => join(directory, bucket, `${key}._S3rver_object`),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
