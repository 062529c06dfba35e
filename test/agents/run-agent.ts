/**
 * Runs one coding agent as a child process with a hard time limit: it is started in its own
 * process group (detached) so that, when the limit passes or the run ends, the whole group —
 * the agent and every tool process it spawned — is killed by its group id. Standard input is
 * closed, so an agent that would prompt reads end-of-file instead of waiting.
 */
import { spawn } from 'node:child_process';

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
}

/** Bytes kept of each output stream: enough for a failing run's diagnosis, bounded. */
const OUTPUT_LIMIT = 256 * 1024;

export function runAgent(options: RunOptions): Promise<AgentRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += text;
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Tool processes the agent left behind (a shell, a language server) go with it.
      killGroup();
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}
