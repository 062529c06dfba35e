/**
 * Codex CLI (`codex exec`) against the gateway's Responses surface: a custom model provider in
 * the rig's `CODEX_HOME/config.toml` (`wire_api = "responses"`, `base_url` the gateway's `/v1`,
 * `env_key` naming the variable that holds a gateway key), no retries (a failure shows at
 * once), update checks, analytics, feedback, OpenTelemetry export, the plugin marketplace and
 * connector sync off (`codex features list` names the switches). Approvals never,
 * sandbox off (`danger-full-access`: the Linux sandbox needs namespaces a container may lack),
 * so its `exec_command` tool can write into the rig's working directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, binPath } from './agent-definition.js';

export const codex: AgentDefinition = {
  name: 'Codex CLI',
  packageName: '@openai/codex',
  surface: () => 'OpenAI Responses',
  tool: 'exec_command',
  toolArgs: (path, content) => ({ cmd: `printf '%s' '${content}' > '${path}'` }),
  upstreams: ['openai', 'anthropic', 'gemini'],
  launch: (rig, prompt) => {
    const config = [
      `model = "${rig.model}"`,
      'model_provider = "gengate"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      '[otel]',
      'exporter = "none"',
      '',
      // The curated plugin marketplace and connector ("apps") lists are fetched from the
      // vendor at start; off, as a gateway's users without a ChatGPT login would have them.
      '[features]',
      'plugins = false',
      'remote_plugin = false',
      'plugin_sharing = false',
      'apps = false',
      'in_app_updates = false',
      '',
      '[model_providers.gengate]',
      'name = "gengate"',
      `base_url = "${rig.gatewayUrl}/v1"`,
      'env_key = "GENGATE_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n');
    const codexHome = join(rig.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), config);
    return {
      command: binPath('codex'),
      args: ['exec', '--skip-git-repo-check', '--sandbox', 'danger-full-access', '-C', rig.workdir, prompt],
      env: { ...rig.baseEnv, CODEX_HOME: codexHome, GENGATE_API_KEY: rig.key },
    };
  },
};
