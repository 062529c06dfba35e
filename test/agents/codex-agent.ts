/**
 * Codex CLI (`codex exec`) against the gateway's Responses surface: a custom model provider in
 * the rig's `CODEX_HOME/config.toml` (`wire_api = "responses"`, `base_url` the gateway's `/v1`,
 * `env_key` naming the variable that holds a gateway key), no retries (a failure shows at
 * once), update checks, analytics, feedback, OpenTelemetry export, the plugin marketplace and
 * connector sync off (`codex features list` names the switches). Approvals never, sandbox off
 * (`danger-full-access`: the Linux sandbox needs namespaces a container may lack), so its
 * `exec_command` tool can write into the rig's working directory.
 *
 * Two variants: Codex's default tool set, which also offers the hosted `web_search` tool and
 * the `multi_agent_v1` `namespace` tool; and Codex with those two off (`web_search =
 * "disabled"`, feature `multi_agent` off), whose tools are all plain functions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, binPath } from './agent-definition.js';
import type { AgentRig } from './agent-rig.js';

function writeConfig(rig: AgentRig, functionToolsOnly: boolean): string {
  const config = [
    `model = "${rig.model}"`,
    'model_provider = "gengate"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    ...(functionToolsOnly ? ['web_search = "disabled"'] : []),
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
    ...(functionToolsOnly ? ['multi_agent = false'] : []),
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
  return codexHome;
}

function codexVariant(functionToolsOnly: boolean): AgentDefinition {
  return {
    name: 'Codex CLI',
    variant: functionToolsOnly ? 'web_search and multi_agent off' : undefined,
    packageName: '@openai/codex',
    surface: () => 'OpenAI Responses',
    tool: 'exec_command',
    toolArgs: (path, content) => ({ cmd: `printf '%s' '${content}' > '${path}'` }),
    upstreams: ['openai', 'anthropic', 'gemini'],
    launch: (rig, prompt) => ({
      command: binPath('codex'),
      args: ['exec', '--skip-git-repo-check', '--sandbox', 'danger-full-access', '-C', rig.workdir, prompt],
      env: { ...rig.baseEnv, CODEX_HOME: writeConfig(rig, functionToolsOnly), GENGATE_API_KEY: rig.key },
    }),
  };
}

/** Codex as installed: its default tool set. */
export const codex = codexVariant(false);
/** Codex with its hosted web search and multi-agent namespace tool switched off. */
export const codexFunctionTools = codexVariant(true);
