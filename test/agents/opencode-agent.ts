/**
 * opencode (`opencode run`) against the gateway, once per provider kind its config can declare:
 * an OpenAI-compatible provider (`@ai-sdk/openai-compatible`, Chat Completions at the gateway's
 * `/v1`), an Anthropic provider (`@ai-sdk/anthropic`, Messages at the gateway's `/v1`) and its
 * built-in `openai` provider given the gateway's `/v1` as base URL (`@ai-sdk/openai`, which
 * speaks the Responses API),
 * each with a gateway key and the upstream's catalog model as both `model` and `small_model`.
 * The config (`OPENCODE_CONFIG`, in the rig's home) turns auto-update and sharing off; the
 * models.dev fetch, LSP downloads, default plugins and the Claude Code compatibility reads
 * are off by their variables. Its `write` tool is allowed without a prompt.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, binPath } from './agent-definition.js';
import type { AgentRig } from './agent-rig.js';
import type { Dialect } from './tool-loop.js';

/** Which of the config's providers reaches which upstream. */
const PROVIDER_FOR: Partial<Record<Dialect, 'gengate-openai' | 'gengate-anthropic' | 'openai'>> = {
  anthropic: 'gengate-openai',
  openai: 'gengate-anthropic',
  gemini: 'openai',
};

/**
 * opencode installs `@opencode-ai/plugin` from the npm registry into every config folder
 * (in the background, at each start) unless the folder's package.json and package-lock.json
 * already agree on it and it has a node_modules folder — the state a previous run leaves.
 * The global config folder is seeded with that state so the run makes no request outside.
 */
function seedConfigFolder(rig: AgentRig): void {
  const folder = join(rig.baseEnv.XDG_CONFIG_HOME, 'opencode');
  mkdirSync(join(folder, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': '*' };
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(join(folder, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
}

function writeConfig(rig: AgentRig): string {
  seedConfigFolder(rig);
  const provider = PROVIDER_FOR[rig.upstream] ?? 'gengate-openai';
  const models = { [rig.model]: { name: rig.model, tool_call: true, limit: { context: 128000, output: 4096 } } };
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `${provider}/${rig.model}`,
    small_model: `${provider}/${rig.model}`,
    permission: { edit: 'allow', bash: 'allow', webfetch: 'deny' },
    provider: {
      'gengate-openai': {
        npm: '@ai-sdk/openai-compatible',
        name: 'gengate (OpenAI-compatible)',
        options: { baseURL: `${rig.gatewayUrl}/v1`, apiKey: rig.key },
        models,
      },
      'gengate-anthropic': { npm: '@ai-sdk/anthropic', name: 'gengate (Anthropic)', options: { baseURL: `${rig.gatewayUrl}/v1`, apiKey: rig.key }, models },
      // The built-in provider, only pointed elsewhere: it keeps its own SDK (the Responses API).
      openai: { options: { baseURL: `${rig.gatewayUrl}/v1`, apiKey: rig.key }, models },
    },
  };
  const path = join(rig.home, 'opencode.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export const opencode: AgentDefinition = {
  name: 'opencode',
  packageName: 'opencode-ai',
  surface: (upstream) => {
    const provider = PROVIDER_FOR[upstream];
    if (provider === 'gengate-anthropic') return 'Anthropic Messages';
    return provider === 'openai' ? 'OpenAI Responses' : 'OpenAI Chat Completions';
  },
  tool: 'write',
  toolArgs: (path, content) => ({ filePath: path, content }),
  upstreams: ['anthropic', 'openai', 'gemini'],
  launch: (rig, prompt) => ({
    command: binPath('opencode'),
    args: ['run', prompt],
    env: {
      ...rig.baseEnv,
      OPENCODE_CONFIG: writeConfig(rig),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
      OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
      OPENCODE_DISABLE_PROJECT_CONFIG: '1',
      OPENCODE_DISABLE_TERMINAL_TITLE: '1',
    },
  }),
};
