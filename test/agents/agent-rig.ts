/**
 * Everything one agent run needs, started fresh for that run: one fake upstream of the chosen
 * dialect answering through the tool-loop script, a gateway routed to it (the channel helpers
 * of test/helpers/fake-channels.ts), a recording proxy in front of the gateway (the only
 * address the agent is given), an egress trap as the agent's proxy for everything else, and
 * a temporary folder holding the agent's home, XDG folders and working directory, so that no
 * run reads or writes the real home. `baseEnv` is the whole environment an agent gets: nothing
 * of the test process's own environment leaks in but PATH and the locale.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropicUpstream } from '../fakes/fake-anthropic-upstream.js';
import { startFakeGeminiUpstream } from '../fakes/fake-gemini-upstream.js';
import { startFakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import type { TurnScript } from '../fakes/scripted-turn.js';
import { anthropicUpChannel, geminiUpChannel, openaiUpChannel } from '../helpers/fake-channels.js';
import { type ChannelSpec, startGateway } from '../helpers/start-gateway.js';
import { type EgressTrap, startEgressTrap } from './egress-trap.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';
import { type Dialect, newToolLoopLog, type ToolLoopLog, type ToolLoopPlan, toolLoopScript } from './tool-loop.js';

/** The catalog model each upstream serves through the fake channels. */
export const UPSTREAM_MODEL: Record<Dialect, string> = {
  anthropic: 'textmodel-a-sonnet-4-20250514',
  openai: 'textmodel-b-4o',
  gemini: 'textmodel-c-2.5-flash',
};

export const UPSTREAM_NAME: Record<Dialect, string> = { anthropic: 'Anthropic', openai: 'OpenAI', gemini: 'Gemini' };

export interface AgentRig {
  upstream: Dialect;
  model: string;
  /** The recording proxy's base URL (no path): what the agent is told the gateway is. */
  gatewayUrl: string;
  key: string;
  proxy: RecordingProxy;
  trap: EgressTrap;
  log: ToolLoopLog;
  home: string;
  workdir: string;
  /** PATH, locale, the temp home and XDG folders, the egress trap as proxy. */
  baseEnv: Record<string, string>;
  close(): Promise<void>;
}

async function startUpstream(dialect: Dialect, script: TurnScript): Promise<{ channel: ChannelSpec; close(): Promise<void> }> {
  if (dialect === 'anthropic') {
    const fake = await startFakeAnthropicUpstream({ answerWith: script });
    return { channel: anthropicUpChannel(fake), close: fake.close };
  }
  if (dialect === 'openai') {
    const fake = await startFakeOpenAIUpstream({ answerWith: script });
    return { channel: openaiUpChannel(fake), close: fake.close };
  }
  const fake = await startFakeGeminiUpstream({ answerWith: script });
  return { channel: geminiUpChannel(fake), close: fake.close };
}

export async function startAgentRig(upstream: Dialect, plan: (workdir: string) => ToolLoopPlan): Promise<AgentRig> {
  const root = mkdtempSync(join(tmpdir(), 'gengate-agent-'));
  const home = join(root, 'home');
  const workdir = join(root, 'work');
  for (const dir of [home, workdir, join(home, '.config'), join(home, '.local/share'), join(home, '.cache'), join(home, '.local/state'), join(root, 'tmp')]) {
    mkdirSync(dir, { recursive: true });
  }
  const log = newToolLoopLog();
  const chosen = plan(workdir);
  const fake = await startUpstream(
    upstream,
    toolLoopScript(upstream, () => chosen, log),
  );
  const gateway = await startGateway({ channels: [fake.channel] });
  const proxy = await startRecordingProxy(gateway.url);
  const trap = await startEgressTrap();
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    USER: 'agent-test',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    TMPDIR: join(root, 'tmp'),
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HTTPS_PROXY: trap.url,
    HTTP_PROXY: trap.url,
    ALL_PROXY: trap.url,
    https_proxy: trap.url,
    http_proxy: trap.url,
    all_proxy: trap.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
  return {
    upstream,
    model: UPSTREAM_MODEL[upstream],
    gatewayUrl: proxy.url,
    key: gateway.key,
    proxy,
    trap,
    log,
    home,
    workdir,
    baseEnv,
    close: async () => {
      await Promise.all([proxy.close(), trap.close()]);
      await gateway.close();
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
