/**
 * A short command loads only what it needs: `gengate keys list` opens the database and prints,
 * without Fastify, sharp, pdf.js or the gateway's server (which only `start` imports), so that a
 * command starts in a fraction of the time the whole gateway takes to load. Of the providers it
 * reads only the descriptors' data (config validation needs their names, presets and base URLs):
 * an adapter is loaded when a channel of its provider is built, which only `start` does.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** The provider modules that are data: descriptors, the registry's list, flavours and model tables. */
const PROVIDER_DATA = new Set([
  'registry.ts',
  'create-provider.ts',
  'shared/task-poll-options.ts',
  'shared/base-url-hosts.ts',
  'shared/check-stop-sequences.ts',
  'shared/check-choice-count.ts',
  'openai/named-presets.ts',
  'openai/local-server-presets.ts',
  'bedrock/bedrock-default-url.ts',
  'vertex-ai/vertex-default-url.ts',
  'bedrock/bedrock-options.ts',
  'vertex-ai/vertex-options.ts',
  'openai/openai-flavours.ts',
  'openai/openai-flavour-descriptor.ts',
  'minimax/minimax-models.ts',
]);
const isProviderData = (path: string) => PROVIDER_DATA.has(path) || /^[a-z-]+\/index\.ts$/.test(path);

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs of the modules the command resolved (test/helpers/record-modules.mjs). */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const record = join(dir, `${args.join('-')}.txt`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', './test/helpers/record-modules.mjs', '--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, GENGATE_RECORD_MODULES: record, GENGATE_DATABASE_URL: `sqlite:${join(dir, 'gengate.db')}`, GENGATE_CONFIG: '' },
  });
  expect(stdout).toContain('no keys yet');
  return readFileSync(record, 'utf8').split('\n');
}

describe('gengate keys list', () => {
  it('loads neither Fastify, sharp, pdf.js nor the gateway app', async () => {
    const loaded = await modulesLoadedBy(['keys', 'list']);
    // The recording works: the command's own module and the database driver are in it.
    expect(loaded.some((url) => url.endsWith('/src/cli/keys-command.ts'))).toBe(true);
    expect(loaded.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true);
    const heavy = loaded.filter((url) =>
      [
        '/node_modules/fastify/',
        '/node_modules/@fastify/',
        '/node_modules/sharp/',
        '/node_modules/pdfjs-dist/',
        '/src/app.ts',
        '/src/cli/start-command.ts',
      ].some((part) => url.includes(part)),
    );
    expect(heavy).toEqual([]);
    const providerModules = loaded.flatMap((url) => url.match(/\/src\/providers\/(.+)$/)?.[1] ?? []);
    // The recording sees the descriptors, and no adapter module beside them.
    expect(providerModules).toContain('anthropic/index.ts');
    expect(providerModules.filter((path) => !isProviderData(path))).toEqual([]);
  }, 60_000);
});
