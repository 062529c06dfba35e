/**
 * Gemini CLI (`gemini -p`) against the gateway's Gemini surface: `GOOGLE_GEMINI_BASE_URL` is the
 * gateway, `GEMINI_API_KEY` a gateway key, `-m` the catalog model of the upstream under test.
 * Its user settings (in the rig's home) pick API-key auth and switch off telemetry, usage
 * statistics, auto-update and its nag, IDE integration, the sandbox and folder trust; `--yolo`
 * approves the tool call; `GEMINI_CLI_NO_RELAUNCH` keeps it one process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, binPath } from './agent-definition.js';

export const geminiCli: AgentDefinition = {
  name: 'Gemini CLI',
  packageName: '@google/gemini-cli',
  surface: () => 'Gemini streamGenerateContent',
  tool: 'write_file',
  toolArgs: (path, content) => ({ file_path: path, content }),
  upstreams: ['gemini', 'anthropic', 'openai'],
  launch: (rig, prompt) => {
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      telemetry: { enabled: false, logPrompts: false },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false, hasSeenNudge: true },
      tools: { sandbox: false },
      model: { name: rig.model },
    };
    mkdirSync(join(rig.home, '.gemini'), { recursive: true });
    writeFileSync(join(rig.home, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
    return {
      command: binPath('gemini'),
      args: ['-p', prompt, '-m', rig.model, '--yolo', '--output-format', 'text'],
      env: {
        ...rig.baseEnv,
        GOOGLE_GEMINI_BASE_URL: rig.gatewayUrl,
        GEMINI_API_KEY: rig.key,
        GEMINI_MODEL: rig.model,
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_TELEMETRY_ENABLED: 'false',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
    };
  },
};
