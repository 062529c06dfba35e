import { describe, expect, it } from 'vitest';
import { actsOnTheWorld } from './classify-tool.js';

const tool = (name: string, description?: string) => ({ name, description, parameters: {} });

describe('actsOnTheWorld', () => {
  it.each([
    // Claude Code, Codex, Gemini CLI, opencode
    'Bash',
    'Edit',
    'MultiEdit',
    'Write',
    'NotebookEdit',
    'TodoWrite',
    'shell',
    'apply_patch',
    'run_shell_command',
    'write_file',
    'replace',
    'str_replace_based_edit_tool',
    'exec_command',
    'delete_file',
    'mcp__github__create_issue',
    'mcp__fs__move_file',
    'rm',
  ])('%s acts', (name) => {
    expect(actsOnTheWorld(tool(name))).toBe(true);
  });

  it.each(['Read', 'Glob', 'Grep', 'read_file', 'list_directory', 'glob', 'search_file_content', 'WebFetch', 'get_weather', 'view_image'])(
    '%s only reads',
    (name) => {
      expect(actsOnTheWorld(tool(name, 'Returns information; changes nothing.'))).toBe(false);
    },
  );

  it('a neutral name whose description says it executes or modifies acts', () => {
    expect(actsOnTheWorld(tool('do_it', 'Executes the given program on the host'))).toBe(true);
    expect(actsOnTheWorld(tool('sync', 'Modifies the files in the workspace'))).toBe(true);
    expect(actsOnTheWorld(tool('lookup', 'Looks a word up in the dictionary'))).toBe(false);
  });
});
