import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';
import type { ProviderDescriptor } from '../providers/types.js';
import { ConfigError, loadConfig } from './load-config.js';

function yamlFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-config-'));
  const path = join(dir, 'gengate.yaml');
  writeFileSync(path, text);
  return path;
}

describe('loadConfig', () => {
  it('runs on embedded defaults with no file and no environment', () => {
    const config = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: undefined });
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8080 });
    expect(config.databaseUrl).toBe('sqlite:./data/gengate.db');
    expect(config.channels).toEqual([]);
    expect(config.sandbox.enabled).toBe(true);
    expect(config.secretKey).toBeUndefined();
  });

  it('takes the secret key for stored credentials from GENGATE_SECRET_KEY', () => {
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY: 'a'.repeat(64) } }).secretKey).toBe('a'.repeat(64));
  });

  it('refuses a malformed GENGATE_SECRET_KEY when the configuration loads, naming the variable', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY: 'not-a-key' } })).toThrow(ConfigError);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY: 'a'.repeat(62) } })).toThrow(
      /^GENGATE_SECRET_KEY must be 32 bytes written in base64 or hex/,
    );
    // 31 bytes in base64: the right alphabet, the wrong length.
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY: Buffer.alloc(31, 7).toString('base64') } })).toThrow(
      /GENGATE_SECRET_KEY/,
    );
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY_PREVIOUS: `${'b'.repeat(64)},short` } })).toThrow(
      /^GENGATE_SECRET_KEY_PREVIOUS \(key 2\) must be 32 bytes/,
    );
  });

  it('refuses an empty GENGATE_SECRET_KEY instead of treating it as unset', () => {
    for (const empty of ['', '  ']) {
      expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY: empty } })).toThrow(
        /GENGATE_SECRET_KEY is set but empty: .*unset it to let the gateway generate one/,
      );
    }
  });

  it('refuses a malformed or empty secretKey in the config file', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('secretKey: "tooshort"\n') })).toThrow(
      /^secretKey \(config file\) must be 32 bytes/,
    );
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('secretKey: ""\n') })).toThrow(
      /secretKey in the config file is empty/,
    );
    const valid = yamlFile(`secretKey: "${'c'.repeat(64)}"\n`);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: valid }).secretKey).toBe('c'.repeat(64));
  });

  it('takes the keys in force before a rotation from GENGATE_SECRET_KEY_PREVIOUS, comma-separated', () => {
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).previousSecretKeys).toEqual([]);
    expect(
      loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_SECRET_KEY_PREVIOUS: ` ${'b'.repeat(64)} ,, ${'c'.repeat(64)}` } }).previousSecretKeys,
    ).toEqual(['b'.repeat(64), 'c'.repeat(64)]);
  });

  it('creates one channel per provider key in the environment, with the family prefix rewrite', () => {
    const config = loadConfig({
      providers: PROVIDER_DESCRIPTORS,
      env: { OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', GEMINI_API_KEY: 'gk' },
    });
    const byName = Object.fromEntries(config.channels.map((c) => [c.name, c]));
    expect(byName['openai-env']).toMatchObject({
      provider: 'openai',
      apiKey: 'sk-1',
      baseUrl: 'https://api.openai.com/v1',
      modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    });
    expect(byName['openai-env'].models).toContain('textmodel-b-*');
    expect(byName['openai-env'].models).toContain('gpt-*');
    expect(byName['anthropic-env']).toMatchObject({ baseUrl: 'http://127.0.0.1:9', modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }] });
    expect(byName['gemini-env'].models).toContain('gemini-*');
  });

  it('takes a custom prefix rewrite from the environment', () => {
    const config = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { OPENAI_API_KEY: 'k', OPENAI_MODEL_REWRITE: 'mine-=gpt-,x=y' } });
    expect(config.channels[0].modelRewrite).toEqual([
      { from: 'mine-', to: 'gpt-' },
      { from: 'x', to: 'y' },
    ]);
    expect(config.channels[0].models).toContain('mine-*');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { OPENAI_API_KEY: 'k', OPENAI_MODEL_REWRITE: 'nonsense' } })).toThrow(ConfigError);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the title names the literal ${VAR} placeholder syntax the config loader expands
  it('reads channels from YAML, fills defaults and expands ${VAR} from the environment', () => {
    const path = yamlFile(`
server:
  port: 9999
channels:
  - name: local-llama
    provider: openai-compatible
    baseUrl: http://127.0.0.1:11434/v1/
    models: [llama3, "qwen*"]
    priority: 5
  - name: claude
    provider: anthropic
    apiKey: \${MY_ANTHROPIC_KEY}
    models: textmodel-a-*
    modelRewrite: [{ from: textmodel-a-, to: claude- }]
`);
    const config = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { MY_ANTHROPIC_KEY: 'secret', GENGATE_PORT: '7000' }, configPath: path });
    expect(config.server.port).toBe(7000);
    expect(config.channels[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3', 'qwen*'], priority: 5, weight: 1, enabled: true });
    expect(config.channels[1]).toMatchObject({ apiKey: 'secret', baseUrl: 'https://api.anthropic.com', models: ['textmodel-a-*'] });
  });

  it('reads the server timeouts and body depth, and refuses impossible ones', () => {
    const config = loadConfig({
      providers: PROVIDER_DESCRIPTORS,
      env: {},
      configPath: yamlFile('server:\n  headersTimeoutMs: 5000\n  requestTimeoutMs: 60000\n  maxBodyDepth: 64\n'),
    });
    expect(config.server).toMatchObject({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 60000,
      maxBodyDepth: 64,
      keepAliveTimeoutMs: 72000,
      connectionTimeoutMs: 0,
    });
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('server:\n  requestTimeoutMs: 0\n') })).toThrow(
      /server\.requestTimeoutMs/,
    );
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('server:\n  maxBodyDepth: deep\n') })).toThrow(
      /server\.maxBodyDepth/,
    );
    expect(() =>
      loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('server:\n  headersTimeoutMs: 90000\n  requestTimeoutMs: 60000\n') }),
    ).toThrow(/headersTimeoutMs/);
  });

  it('names what is wrong in a bad file', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('channels:\n  - name: x\n    provider: nope\n') })).toThrow(
      /channels\[0\]\.provider/,
    );
    expect(() =>
      loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('channels:\n  - name: x\n    provider: openai\n    baseUrl: ftp://x\n') }),
    ).toThrow(/baseUrl/);
    expect(() =>
      loadConfig({
        providers: PROVIDER_DESCRIPTORS,
        env: {},
        configPath: yamlFile('channels:\n  - {name: a, provider: sandbox}\n  - {name: a, provider: sandbox}\n'),
      }),
    ).toThrow(/two channels/);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: '/nonexistent/gengate.yaml' })).toThrow(/not found/);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_PORT: 'eighty' } })).toThrow(/GENGATE_PORT/);
  });

  it('reads the image pixel cap from YAML or the environment, 50 megapixels by default, and refuses a bad one', () => {
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).media.maxImagePixels).toBe(50_000_000);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('media:\n  maxImagePixels: 80000000\n') }).media.maxImagePixels).toBe(
      80_000_000,
    );
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_MAX_IMAGE_PIXELS: '1000000' } }).media.maxImagePixels).toBe(1_000_000);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('media:\n  maxImagePixels: lots\n') })).toThrow(
      /media\.maxImagePixels must be a positive integer/,
    );
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_MAX_IMAGE_PIXELS: '0' } })).toThrow(/media\.maxImagePixels/);
  });
});

describe('responses.maxStoredMiBPerAccount', () => {
  const load = (yaml?: string) => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yaml === undefined ? undefined : yamlFile(yaml) });
  it('defaults to 1024 MiB, takes 0 for no cap, and refuses anything else than a whole number in range', () => {
    expect(load().responses.maxStoredMiBPerAccount).toBe(1024);
    expect(load('responses:\n  maxStoredMiBPerAccount: 0\n').responses.maxStoredMiBPerAccount).toBe(0);
    for (const value of ['-1', '1.5', '"a lot"', '2000000']) {
      expect(() => load(`responses:\n  maxStoredMiBPerAccount: ${value}\n`), value).toThrow(/responses\.maxStoredMiBPerAccount must be a whole number of MiB/);
    }
  });
});

describe('responses.retentionDays', () => {
  const load = (yaml?: string) => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yaml === undefined ? undefined : yamlFile(yaml) });

  it('keeps stored responses 30 days by default, as OpenAI does, or the days the file says', () => {
    expect(load().responses.retentionDays).toBe(30);
    expect(load('responses:\n  retentionDays: 7\n').responses.retentionDays).toBe(7);
  });

  it('refuses what is not a whole number of days from 1 to 3650', () => {
    for (const value of ['0', '-1', '1.5', 'forever', '3651', 'null']) {
      expect(() => load(`responses:\n  retentionDays: ${value}\n`), value).toThrow(/responses\.retentionDays must be a whole number of days from 1 to 3650/);
    }
  });
});

describe('environment presets', () => {
  const acme: ProviderDescriptor = {
    name: 'acme',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.acme.test/v2',
    envPreset: {
      keyVar: 'ACME_KEY',
      baseVar: 'ACME_URL',
      rewriteVar: 'ACME_REWRITE',
      rewrite: [{ from: 'textmodel-z-', to: 'acme-' }],
      modelMap: { 'house-model': 'acme-large' },
      extraModels: ['acme-*'],
    },
    factory: () => ({}),
  };

  it('come from the provider descriptors', () => {
    const config = loadConfig({ env: { ACME_KEY: 'k1', OPENAI_API_KEY: 'ignored' }, providers: [acme] });
    expect(config.channels).toEqual([
      expect.objectContaining({
        name: 'acme-env',
        provider: 'acme',
        apiKey: 'k1',
        baseUrl: 'https://api.acme.test/v2',
        models: ['textmodel-z-*', 'house-model', 'acme-*'],
        modelMap: { 'house-model': 'acme-large' },
        modelRewrite: [{ from: 'textmodel-z-', to: 'acme-' }],
        enabled: true,
      }),
    ]);
    const overridden = loadConfig({ env: { ACME_KEY: 'k1', ACME_URL: 'http://127.0.0.1:7/v9/', ACME_REWRITE: 'mine-=acme-' }, providers: [acme] });
    expect(overridden.channels[0]).toMatchObject({
      baseUrl: 'http://127.0.0.1:7/v9',
      modelRewrite: [{ from: 'mine-', to: 'acme-' }],
      models: ['mine-*', 'house-model', 'acme-*'],
    });
  });

  it('with no key variable set, add no channel', () => {
    expect(loadConfig({ env: { ACME_URL: 'http://127.0.0.1:7' }, providers: [acme] }).channels).toEqual([]);
  });

  it('every registered preset makes its channel, named after the provider', () => {
    const env: Record<string, string> = {};
    for (const d of PROVIDER_DESCRIPTORS) {
      if (!d.envPreset) continue;
      env[d.envPreset.keyVar] = `key-of-${d.name}`;
      // A provider without a default host (an MJ proxy is self-hosted) needs its base URL too.
      if (!d.defaultBaseUrl && !d.simulated) env[d.envPreset.baseVar] = `http://upstream-of-${d.name}.test`;
    }
    const config = loadConfig({ providers: PROVIDER_DESCRIPTORS, env });
    expect(config.channels.map((c) => [c.name, c.provider, c.apiKey])).toEqual(
      PROVIDER_DESCRIPTORS.filter((d) => d.envPreset).map((d) => [`${d.name}-env`, d.name, `key-of-${d.name}`]),
    );
    expect(config.channels.find((c) => c.provider === 'ideogram')).toMatchObject({ baseUrl: 'https://api.ideogram.ai', modelMap: { 'imagegen2-v3': 'V_3' } });
    expect(config.channels.find((c) => c.provider === 'replicate')?.models).toContain('imagegen1-schnell');
  });
});

describe('port, logs and start-up settings', () => {
  it('finding 15: takes the port from PORT, as hosting platforms set it; GENGATE_PORT wins over PORT, both over the file', () => {
    const path = yamlFile('server:\n  port: 7000\n');
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path }).server.port).toBe(7000);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { PORT: '10000' }, configPath: path }).server.port).toBe(10000);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { PORT: '10000', GENGATE_PORT: '9000' }, configPath: path }).server.port).toBe(9000);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { PORT: '' } }).server.port).toBe(8080);
  });

  it('finding 14: refuses a port that is not one, naming where it came from', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { PORT: 'abc' } })).toThrow('PORT="abc" is not a port');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_PORT: '70000' } })).toThrow('GENGATE_PORT="70000" is not a port');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_PORT: '-1' } })).toThrow(ConfigError);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_PORT: '80.5' } })).toThrow(ConfigError);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yamlFile('server:\n  port: "8080"\n') })).toThrow(
      'server.port "8080" is not a port',
    );
  });

  it('finding 14: refuses an unknown log level or format, and a file that is not YAML in one line', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_LOG_LEVEL: 'loud' } })).toThrow(/GENGATE_LOG_LEVEL: unknown log level "loud"/);
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_LOG_FORMAT: 'xml' } })).toThrow(/GENGATE_LOG_FORMAT: unknown log format "xml"/);
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { GENGATE_LOG_FORMAT: 'json' } }).logFormat).toBe('json');
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).logFormat).toBeUndefined();
    const path = yamlFile('server:\n  port: [8080\nchannels: }\n');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path })).toThrow(ConfigError);
    // One line: no newline anywhere, ending with where the mistake is.
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path })).toThrow(/^[^\n]*line \d+, column \d+$/);
  });
});

describe('retention', () => {
  const load = (yaml?: string) => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yaml === undefined ? undefined : yamlFile(yaml) });
  it('keeps records forever unless told, and webhook deliveries 30 days', () => {
    expect(load().retention).toEqual({ usageRecordsDays: 0, tasksDays: 0, webhookDeliveriesDays: 30, auditDays: 0 });
    expect(load('retention:\n  usageRecordsDays: 90\n').retention.usageRecordsDays).toBe(90);
  });
  it('refuses what is not a whole number of days, and unknown settings', () => {
    expect(() => load('retention:\n  auditDays: -1\n')).toThrow(/retention\.auditDays must be a whole number of days from 0/);
    expect(() => load('retention:\n  tasksDays: 1.5\n')).toThrow(/retention\.tasksDays/);
    expect(() => load('retention:\n  usageDays: 3\n')).toThrow(/retention\.usageDays is not a setting/);
  });
});

describe('admission', () => {
  const load = (yaml?: string) => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: yaml === undefined ? undefined : yamlFile(yaml) });
  it('fails rates open and budgets closed unless told otherwise', () => {
    expect(load().admission.failure).toEqual({ rates: 'open', counts: 'open', budgets: 'closed' });
    const changed = load('admission:\n  leaseMs: 5000\n  failure:\n    rates: closed\n').admission;
    expect(changed.leaseMs).toBe(5000);
    expect(changed.failure).toEqual({ rates: 'closed', counts: 'open', budgets: 'closed' });
  });
  it('refuses unknown settings and values out of range', () => {
    expect(() => load('admission:\n  failure:\n    budgets: maybe\n')).toThrow(/admission\.failure\.budgets must be open or closed/);
    expect(() => load('admission:\n  leaseMs: 10\n')).toThrow(/admission\.leaseMs must be a whole number from 1000/);
    expect(() => load('admission:\n  leases: 10\n')).toThrow(/admission\.leases is not a setting/);
    expect(() => load('admission:\n  redisKeyPrefix: "a b"\n')).toThrow(/admission\.redisKeyPrefix/);
  });
});
