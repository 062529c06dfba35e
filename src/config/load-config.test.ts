import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';

function yamlFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-config-'));
  const path = join(dir, 'gengate.yaml');
  writeFileSync(path, text);
  return path;
}

describe('loadConfig', () => {
  it('runs on embedded defaults with no file and no environment', () => {
    const config = loadConfig({ env: {}, configPath: undefined });
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8080 });
    expect(config.databaseUrl).toBe('sqlite:./data/gengate.db');
    expect(config.channels).toEqual([]);
    expect(config.sandbox.enabled).toBe(true);
  });

  it('creates one channel per provider key in the environment, with the family prefix rewrite', () => {
    const config = loadConfig({
      env: { OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', GEMINI_API_KEY: 'gk' },
    });
    const byName = Object.fromEntries(config.channels.map((c) => [c.name, c]));
    expect(byName['openai-env']).toMatchObject({ provider: 'openai', apiKey: 'sk-1', baseUrl: 'https://api.openai.com/v1', modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }] });
    expect(byName['openai-env'].models).toContain('textmodel-b-*');
    expect(byName['openai-env'].models).toContain('gpt-*');
    expect(byName['anthropic-env']).toMatchObject({ baseUrl: 'http://127.0.0.1:9', modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }] });
    expect(byName['gemini-env'].models).toContain('gemini-*');
  });

  it('takes a custom prefix rewrite from the environment', () => {
    const config = loadConfig({ env: { OPENAI_API_KEY: 'k', OPENAI_MODEL_REWRITE: 'mine-=gpt-,x=y' } });
    expect(config.channels[0].modelRewrite).toEqual([{ from: 'mine-', to: 'gpt-' }, { from: 'x', to: 'y' }]);
    expect(config.channels[0].models).toContain('mine-*');
    expect(() => loadConfig({ env: { OPENAI_API_KEY: 'k', OPENAI_MODEL_REWRITE: 'nonsense' } })).toThrow(ConfigError);
  });

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
    const config = loadConfig({ env: { MY_ANTHROPIC_KEY: 'secret', GENGATE_PORT: '7000' }, configPath: path });
    expect(config.server.port).toBe(7000);
    expect(config.channels[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3', 'qwen*'], priority: 5, weight: 1, enabled: true });
    expect(config.channels[1]).toMatchObject({ apiKey: 'secret', baseUrl: 'https://api.anthropic.com', models: ['textmodel-a-*'] });
  });

  it('names what is wrong in a bad file', () => {
    expect(() => loadConfig({ env: {}, configPath: yamlFile('channels:\n  - name: x\n    provider: nope\n') })).toThrow(/channels\[0\]\.provider/);
    expect(() => loadConfig({ env: {}, configPath: yamlFile('channels:\n  - name: x\n    provider: openai\n    baseUrl: ftp://x\n') })).toThrow(/baseUrl/);
    expect(() => loadConfig({ env: {}, configPath: yamlFile('channels:\n  - {name: a, provider: sandbox}\n  - {name: a, provider: sandbox}\n') })).toThrow(/two channels/);
    expect(() => loadConfig({ env: {}, configPath: '/nonexistent/gengate.yaml' })).toThrow(/not found/);
    expect(() => loadConfig({ env: { GENGATE_PORT: 'eighty' } })).toThrow(/GENGATE_PORT/);
  });

  it('reads the image pixel cap from YAML or the environment, 50 megapixels by default, and refuses a bad one', () => {
    expect(loadConfig({ env: {} }).media.maxImagePixels).toBe(50_000_000);
    expect(loadConfig({ env: {}, configPath: yamlFile('media:\n  maxImagePixels: 80000000\n') }).media.maxImagePixels).toBe(80_000_000);
    expect(loadConfig({ env: { GENGATE_MAX_IMAGE_PIXELS: '1000000' } }).media.maxImagePixels).toBe(1_000_000);
    expect(() => loadConfig({ env: {}, configPath: yamlFile('media:\n  maxImagePixels: lots\n') })).toThrow(/media\.maxImagePixels must be a positive integer/);
    expect(() => loadConfig({ env: { GENGATE_MAX_IMAGE_PIXELS: '0' } })).toThrow(/media\.maxImagePixels/);
  });
});
