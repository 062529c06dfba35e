/**
 * Claude Code (`claude -p`) against the gateway's Anthropic surface: `ANTHROPIC_BASE_URL` is the
 * gateway, `ANTHROPIC_API_KEY` a gateway key, every model slot (main, small/fast, the haiku,
 * sonnet and opus defaults) the catalog model of the upstream under test, so no request names
 * a model the gateway does not serve. Telemetry, error reporting, auto-update, feature flags,
 * IDE auto-install and other non-essential traffic are switched off by their variables, and
 * its config folder is in the rig's home. Edits are accepted without a prompt
 * (`--permission-mode acceptEdits`, `Write` allowed), which works as root, unlike bypass mode.
 */
import { join } from 'node:path';
import { type AgentDefinition, binPath } from './agent-definition.js';

export const claudeCode: AgentDefinition = {
  name: 'Claude Code',
  packageName: '@anthropic-ai/claude-code',
  surface: () => 'Anthropic Messages',
  tool: 'Write',
  toolArgs: (path, content) => ({ file_path: path, content }),
  upstreams: ['anthropic', 'openai', 'gemini'],
  launch: (rig, prompt) => ({
    command: binPath('claude'),
    args: ['-p', prompt, '--model', rig.model, '--output-format', 'text', '--permission-mode', 'acceptEdits', '--allowedTools', 'Write', '--max-turns', '4'],
    env: {
      ...rig.baseEnv,
      ANTHROPIC_BASE_URL: rig.gatewayUrl,
      ANTHROPIC_API_KEY: rig.key,
      ANTHROPIC_MODEL: rig.model,
      ANTHROPIC_SMALL_FAST_MODEL: rig.model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: rig.model,
      ANTHROPIC_DEFAULT_SONNET_MODEL: rig.model,
      ANTHROPIC_DEFAULT_OPUS_MODEL: rig.model,
      CLAUDE_CODE_SUBAGENT_MODEL: rig.model,
      CLAUDE_CONFIG_DIR: join(rig.home, '.claude'),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_UPDATES: '1',
      DISABLE_GROWTHBOOK: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
      CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    },
  }),
};
