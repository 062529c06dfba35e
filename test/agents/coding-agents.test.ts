/**
 * The real coding agents, headless, against gengate: each case starts a rig (agent-rig.ts) whose
 * fake upstream answers the agent's first model request with a call to the agent's own
 * file-writing tool and, once the tool's result comes back through the gateway, with a final
 * text. The case passes when the file is on disk with the scripted content, the final text is
 * in the agent's output, the upstream saw the tool's result, no request the agent sent got a
 * 4xx or 5xx from the gateway, and the agent tried to reach nothing but 127.0.0.1. Every case
 * adds its row to the compatibility matrix, and the last test checks docs/compatibility.md
 * against the rows of this run (`GENGATE_UPDATE_DOCS=1` rewrites its section).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentDefinition, installedVersion } from './agent-definition.js';
import { startAgentRig, UPSTREAM_NAME } from './agent-rig.js';
import { claudeCode } from './claude-code-agent.js';
import { codex, codexFunctionTools } from './codex-agent.js';
import { checkMatrixSection, type MatrixRow } from './compatibility-matrix.js';
import { geminiCli } from './gemini-cli-agent.js';
import { observeRun } from './observe-run.js';
import { opencode } from './opencode-agent.js';
import { runAgent } from './run-agent.js';
import type { Dialect } from './tool-loop.js';

function agentLabel(agent: AgentDefinition): string {
  return agent.variant ? `${agent.name} (${agent.variant})` : agent.name;
}

const AGENTS: AgentDefinition[] = [claudeCode, codex, codexFunctionTools, geminiCli, opencode];
const CASES = AGENTS.flatMap((agent) =>
  agent.upstreams.map((upstream) => ({ agent, upstream, label: `${agentLabel(agent)} → ${UPSTREAM_NAME[upstream]} upstream` })),
);

/** The hard limit of one agent run; its process group is killed when it passes. */
const RUN_LIMIT_MS = 120_000;
const FILE_NAME = 'gengate-agent-test.txt';
const CONTENT = 'written by the agent through gengate';
const FINAL_TEXT = 'GENGATE-AGENT-TEST-DONE';
const PROMPT = `Create the file ${FILE_NAME} in the current directory containing exactly "${CONTENT}", then reply ${FINAL_TEXT}.`;

/** The request that proves a run went through the surface its row names. */
const SURFACE_CALL: Record<string, RegExp> = {
  'Anthropic Messages': /^\/v1\/messages(\?|$)/,
  'OpenAI Chat Completions': /^\/v1\/chat\/completions(\?|$)/,
  'OpenAI Responses': /^\/v1\/responses(\?|$)/,
  'Gemini streamGenerateContent': /:streamGenerateContent(\?|$)/,
};

const rows: MatrixRow[] = [];
const runTimes: string[] = [];

async function runCase(agent: AgentDefinition, upstream: Dialect): Promise<string[]> {
  const rig = await startAgentRig(upstream, (workdir) => ({
    tool: agent.tool,
    args: agent.toolArgs(join(workdir, FILE_NAME), CONTENT),
    finalText: FINAL_TEXT,
  }));
  try {
    const launch = agent.launch(rig, PROMPT);
    const run = await runAgent({ ...launch, cwd: rig.workdir, timeoutMs: RUN_LIMIT_MS });
    runTimes.push(`${agentLabel(agent)} → ${upstream}: ${run.ms} ms`);
    const observed = observeRun(run, rig, { path: join(rig.workdir, FILE_NAME), content: CONTENT, finalText: FINAL_TEXT });
    const surface = agent.surface(upstream);
    const surfaceCall = SURFACE_CALL[surface];
    if (!surfaceCall || !rig.proxy.requests.some((request) => request.method === 'POST' && surfaceCall.test(request.path))) {
      observed.problems.push(`no POST to the ${surface} surface`);
    }
    rows.push({
      client: `${agent.name} ${installedVersion(agent.packageName)}${agent.variant ? ` (${agent.variant})` : ''}`,
      surface,
      upstream: UPSTREAM_NAME[upstream],
      features: observed.features,
      note: observed.problems.join('; '),
    });
    if (observed.problems.length > 0 && process.env.GENGATE_AGENT_DEBUG === '1') {
      const dump = {
        problems: observed.problems,
        requests: rig.proxy.requests,
        log: rig.log,
        stdout: run.stdout.slice(-3000),
        stderr: run.stderr,
      };
      writeFileSync(join(tmpdir(), `gengate-agent-debug-${agentLabel(agent).replace(/\W+/g, '_')}-${upstream}.json`), JSON.stringify(dump, null, 1));
    }
    return observed.problems;
  } finally {
    await rig.close();
  }
}

describe.concurrent('coding agents through gengate', () => {
  it.each(CASES)(
    '$label: writes the file with its own tool and answers',
    async ({ agent, upstream }) => {
      expect(await runCase(agent, upstream)).toEqual([]);
    },
    RUN_LIMIT_MS + 30_000,
  );
});

describe('docs/compatibility.md', () => {
  afterAll(() => {
    if (process.env.GENGATE_AGENT_DEBUG === '1') console.log(runTimes.join('\n'));
  });

  it('holds the agents matrix of this run', () => {
    expect(rows.length, 'every agent case must run for the matrix to be checked (run the whole file)').toBe(CASES.length);
    const { documented, rendered } = checkMatrixSection('agents', rows);
    expect(documented, 'docs/compatibility.md is stale: rerun this file with GENGATE_UPDATE_DOCS=1').toBe(rendered);
  });
});
