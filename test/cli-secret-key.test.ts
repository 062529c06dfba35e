/**
 * The secret key as an operator meets it, with real `gengate` processes: a start with a key that
 * cannot open a stored channel's credentials fails loudly (exit 2, naming the channel and what to
 * set); `gengate secrets rotate` re-seals every stored channel under a new key, reading the old
 * ones with GENGATE_SECRET_KEY_PREVIOUS; afterwards the new key alone is enough.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelDefaults } from '../src/config/defaults.js';
import { ChannelsRepository } from '../src/store/channels-repository.js';
import { CredentialCipher, keyIdOf } from '../src/store/credential-cipher.js';
import { openStore } from '../src/store/open-store.js';
import { freePort } from './helpers/free-port.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-secret-'));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const OTHER = Buffer.alloc(32, 3);
const CREDENTIAL = 'sk-stored-credential-9876543210';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const store = await openStore(databaseUrl);
  try {
    const channels = new ChannelsRepository(store.db, new CredentialCipher(OLD));
    for (const name of ['stored-one', 'stored-two']) {
      await channels.insert({
        ...channelDefaults(),
        name,
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: CREDENTIAL,
        models: [`${name}-model`],
      });
    }
  } finally {
    await store.close();
  }
});

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function run(args: string[], keys: { current: Buffer; previous?: Buffer[] }, extra: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      GENGATE_DATABASE_URL: databaseUrl,
      GENGATE_DATA_DIR: join(dir, 'data'),
      GENGATE_LOG_LEVEL: 'warn',
      GENGATE_DRAIN_DELAY_MS: '0',
      GENGATE_MASTER_KEY: 'gg-master-secret-key-test-0123456789',
      GENGATE_SECRET_KEY: keys.current.toString('base64'),
      GENGATE_SECRET_KEY_PREVIOUS: (keys.previous ?? []).map((key) => key.toString('hex')).join(','),
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function startsAndServes(keys: { current: Buffer; previous?: Buffer[] }): Promise<string> {
  const port = await freePort();
  const started = run(['start'], keys, { GENGATE_PORT: String(port) });
  const deadline = Date.now() + 30_000;
  try {
    while (!started.output().includes('gengate listening on')) {
      if (Date.now() > deadline || started.child.exitCode !== null) throw new Error(`gateway did not start:\n${started.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const channels = await fetch(`http://127.0.0.1:${port}/admin/v1/channels`, { headers: { authorization: 'Bearer gg-master-secret-key-test-0123456789' } });
    expect(channels.status).toBe(200);
    const body = (await channels.json()) as { data: Array<{ name: string; credentialHint: string }> };
    expect(body.data.map((c) => c.name)).toEqual(['stored-one', 'stored-two']);
    expect(body.data[0].credentialHint).toBe('sk-…3210');
  } finally {
    started.child.kill('SIGTERM');
  }
  expect(await started.exit).toBe(0);
  return started.output();
}

describe('GENGATE_SECRET_KEY', () => {
  it('a key that cannot open a stored channel stops `gengate start` with exit code 2 and says what to set', async () => {
    const wrong = run(['start'], { current: OTHER }, { GENGATE_PORT: String(await freePort()) });
    expect(await wrong.exit).toBe(2);
    const output = wrong.output();
    expect(output).toMatch(/^gengate: the stored credentials of channel "stored-one" cannot be decrypted/m);
    expect(output).toContain(`encrypted under secret key ${keyIdOf(OLD)}`);
    expect(output).toContain(`configured secret key is ${keyIdOf(OTHER)}`);
    expect(output).toContain('GENGATE_SECRET_KEY');
    expect(output).toContain('GENGATE_SECRET_KEY_PREVIOUS');
    expect(output).not.toContain('gengate listening on');
    expect(output).not.toContain(CREDENTIAL);
    expect(output.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
  }, 60_000);

  it('an empty or malformed GENGATE_SECRET_KEY stops `gengate start` before it listens, even with nothing stored yet', async () => {
    // A fresh database: no stored credential that would reveal a bad key later.
    const fresh = { GENGATE_DATABASE_URL: `sqlite:${join(dir, 'fresh.db')}`, GENGATE_DATA_DIR: join(dir, 'fresh-data') };
    for (const [value, expected] of [
      ['', /^gengate: GENGATE_SECRET_KEY is set but empty: .*unset it to let the gateway generate one/m],
      ['not-a-secret-key', /^gengate: GENGATE_SECRET_KEY must be 32 bytes written in base64 or hex/m],
    ] as const) {
      const started = run(['start'], { current: NEW }, { ...fresh, GENGATE_SECRET_KEY: value, GENGATE_PORT: String(await freePort()) });
      const watchdog = setTimeout(() => started.child.kill('SIGKILL'), 20_000);
      const code = await started.exit;
      clearTimeout(watchdog);
      expect(code, started.output()).toBe(2);
      expect(started.output()).toMatch(expected);
      expect(started.output()).not.toContain('gengate listening on');
    }
  }, 60_000);

  it('rotates: new key with the old as previous, `secrets rotate`, then the new key alone starts', async () => {
    const refused = run(['secrets', 'rotate'], { current: NEW });
    expect(await refused.exit).toBe(2);
    expect(refused.output()).toContain('channel "stored-one"');

    // While rotating, the old key as a previous one is enough to start and serve.
    await startsAndServes({ current: NEW, previous: [OTHER, OLD] });

    const rotate = run(['secrets', 'rotate'], { current: NEW, previous: [OLD] });
    expect(await rotate.exit).toBe(0);
    expect(rotate.output()).toContain(`re-encrypted 2 of 2 stored channels under secret key ${keyIdOf(NEW)}`);

    const again = run(['secrets', 'rotate'], { current: NEW, previous: [OLD] });
    expect(await again.exit).toBe(0);
    expect(again.output()).toContain('nothing to re-encrypt');

    await startsAndServes({ current: NEW });
    const old = run(['start'], { current: OLD }, { GENGATE_PORT: String(await freePort()) });
    expect(await old.exit).toBe(2);
  }, 120_000);
});
