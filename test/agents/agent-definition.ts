/**
 * What the agent tests need to know about one coding agent: its npm package (for the version
 * the matrix names), its file-writing tool and that tool's arguments, the upstreams it is
 * tested against, and how to launch it headless against a rig (command line, environment and
 * config files written into the rig's temporary home).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRig } from './agent-rig.js';
import type { Dialect } from './tool-loop.js';

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface AgentDefinition {
  /** The name the matrix shows. */
  name: string;
  /** How this configuration differs from the agent's defaults, when it does (shown in the matrix). */
  variant?: string;
  /** The npm package the devDependency installs. */
  packageName: string;
  /** The gateway surface the agent speaks to reach this upstream (for the matrix). */
  surface(upstream: Dialect): string;
  /** The agent's own file-writing tool, by the name it offers the model. */
  tool: string;
  toolArgs(path: string, content: string): Record<string, unknown>;
  upstreams: Dialect[];
  launch(rig: AgentRig, prompt: string): Launch;
}

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

export function binPath(name: string): string {
  return join(REPO_ROOT, 'node_modules/.bin', name);
}

export function installedVersion(packageName: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', packageName, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
