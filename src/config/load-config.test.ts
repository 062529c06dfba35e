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

  it('finding 15: takes the port from PORT, as hosting platforms set it; GENGATE_PORT wins over PORT, both over the file', () => {
    const path = yamlFile('server:\n  port: 7000\n');
    expect(loadConfig({ env: {}, configPath: path }).server.port).toBe(7000);
    expect(loadConfig({ env: { PORT: '10000' }, configPath: path }).server.port).toBe(10000);
    expect(loadConfig({ env: { PORT: '10000', GENGATE_PORT: '9000' }, configPath: path }).server.port).toBe(9000);
    expect(loadConfig({ env: { PORT: '' } }).server.port).toBe(8080);
  });

  it('finding 14: refuses a port that is not one, naming where it came from', () => {
    expect(() => loadConfig({ env: { PORT: 'abc' } })).toThrow('PORT="abc" is not a port');
    expect(() => loadConfig({ env: { GENGATE_PORT: '70000' } })).toThrow('GENGATE_PORT="70000" is not a port');
    expect(() => loadConfig({ env: { GENGATE_PORT: '-1' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { GENGATE_PORT: '80.5' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: {}, configPath: yamlFile('server:\n  port: "8080"\n') })).toThrow('server.port "8080" is not a port');
  });

  it('finding 14: refuses an unknown log level or format, and a file that is not YAML in one line', () => {
    expect(() => loadConfig({ env: { GENGATE_LOG_LEVEL: 'loud' } })).toThrow(/GENGATE_LOG_LEVEL: unknown log level "loud"/);
    expect(() => loadConfig({ env: { GENGATE_LOG_FORMAT: 'xml' } })).toThrow(/GENGATE_LOG_FORMAT: unknown log format "xml"/);
    expect(loadConfig({ env: { GENGATE_LOG_FORMAT: 'json' } }).logFormat).toBe('json');
    expect(loadConfig({ env: {} }).logFormat).toBeUndefined();
    const path = yamlFile('server:\n  port: [8080\nchannels: }\n');
    expect(() => loadConfig({ env: {}, configPath: path })).toThrow(ConfigError);
    // One line: no newline anywhere, ending with where the mistake is.
    expect(() => loadConfig({ env: {}, configPath: path })).toThrow(/^[^\n]*line \d+, column \d+$/);
  });
});
