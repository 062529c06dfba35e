/**
 * Whether a client's tool acts on the world — runs commands, writes, edits, moves or deletes
 * files, sends or publishes something — or only reads. Coding agents hand the model tools
 * such as `run_shell_command`, `Bash`, `apply_patch`, `write_file`, `Edit`, and an
 * auto-approving agent runs whatever call comes back, so the sandbox must never invent a call
 * to one of them (see choose-tools-to-call.ts). The test is by name and description and errs
 * on the side of "acts": a read-only tool wrongly taken for one is merely not simulated.
 */
import type { ToolDefinition } from '../../core/chat.js';

/** Found anywhere in the lowercased name (`TodoWrite`, `MultiEdit`, `str_replace_editor`). */
const ACTING_STEMS = ['shell', 'bash', 'exec', 'command', 'terminal', 'write', 'edit', 'patch', 'delete', 'remove', 'replace', 'kill', 'install'];
/** Whole words of the name only (`run_shell_command`, `mv`, `create_issue`), too short or common to find inside others. */
const ACTING_WORDS = new Set([
  'run',
  'rm',
  'rmdir',
  'mv',
  'sh',
  'cmd',
  'create',
  'move',
  'rename',
  'apply',
  'mkdir',
  'touch',
  'update',
  'modify',
  'save',
  'commit',
  'push',
  'merge',
  'deploy',
  'send',
  'post',
  'upload',
  'put',
  'insert',
  'append',
  'drop',
  'unlink',
  'chmod',
]);
/** A description that says the tool executes, writes, edits or deletes. */
const ACTING_DESCRIPTION =
  /\b(execut(?:e|es|ing)|shell command|runs? (?:a |the |any )?(?:shell|bash|command|program|script)|writes?|overwrit(?:e|es|ing)|edits?|modif(?:y|ies)|delet(?:e|es)|remov(?:e|es)|patch(?:es)?|moves? files?)\b/i;
/** Descriptions are prose of any length; the verbs that matter come early. */
const DESCRIPTION_SCAN_CHARS = 2_000;

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function actsOnTheWorld(tool: ToolDefinition): boolean {
  const lower = tool.name.toLowerCase();
  if (ACTING_STEMS.some((stem) => lower.includes(stem))) return true;
  if (nameWords(tool.name).some((word) => ACTING_WORDS.has(word))) return true;
  return tool.description !== undefined && ACTING_DESCRIPTION.test(tool.description.slice(0, DESCRIPTION_SCAN_CHARS));
}
