/**
 * The sandbox is safe to point a coding agent at: through the agents' own dialects it never
 * invents a call to a tool that runs commands or changes files unless the request forces that
 * tool, calls a read-only tool only when forced or explicitly asked, and says in its answer
 * what it simulated or declined.
 */
import Anthropic from '@anthropic-ai/sdk';
import { FunctionCallingConfigMode, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const PATH_SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const COMMAND_SCHEMA = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
// Gemini CLI's tools, with its descriptions' gist.
const GEMINI_CLI_TOOLS = [
  {
    name: 'list_directory',
    description: 'Lists the names of files and subdirectories directly within a specified directory path.',
    parametersJsonSchema: PATH_SCHEMA,
  },
  { name: 'read_file', description: 'Reads and returns the content of a specified file.', parametersJsonSchema: PATH_SCHEMA },
  { name: 'run_shell_command', description: 'This tool executes a given shell command as `bash -c <command>`.', parametersJsonSchema: COMMAND_SCHEMA },
  { name: 'write_file', description: 'Writes content to a specified file in the local filesystem.', parametersJsonSchema: PATH_SCHEMA },
];
const PREAMBLE =
  'You are an interactive CLI agent. Use list_directory and read_file to explore, run_shell_command to run commands, write_file to save changes.';

const gemini = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });

describe('Gemini CLI against the sandbox', () => {
  it('a prompt after a preamble naming every tool gets text, not an invented call', async () => {
    // The preamble in the system instruction, in a first turn, and in a part before the prompt.
    const answer = await gemini().models.generateContent({
      model: 'gemini-2.5-pro',
      contents: [
        { role: 'user', parts: [{ text: `This is the Gemini CLI. ${PREAMBLE}` }] },
        { role: 'model', parts: [{ text: 'Got it.' }] },
        { role: 'user', parts: [{ text: PREAMBLE }, { text: 'List the files in this directory and tell me what the project does.' }] },
      ],
      config: { systemInstruction: PREAMBLE, tools: [{ functionDeclarations: GEMINI_CLI_TOOLS }] },
    });
    expect(answer.functionCalls ?? []).toEqual([]);
    expect(answer.text).toContain('[gengate sandbox');
  });

  it('a short prompt that asks for a read-only tool gets the call, said to be simulated', async () => {
    const answer = await gemini().models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: 'Use read_file on README.md',
      config: { tools: [{ functionDeclarations: GEMINI_CLI_TOOLS }] },
    });
    expect(answer.functionCalls?.map((call) => call.name)).toEqual(['read_file']);
    expect(answer.candidates![0].content!.parts![0].text).toContain('[sandbox] simulated a call to read_file');
  });

  it('asked to use the shell tool, it declines and says so', async () => {
    const answer = await gemini().models.generateContent({
      model: 'gemini-2.5-pro',
      contents: 'Use run_shell_command to delete the build directory',
      config: { tools: [{ functionDeclarations: GEMINI_CLI_TOOLS }] },
    });
    expect(answer.functionCalls ?? []).toEqual([]);
    expect(answer.text).toContain('[sandbox] did not simulate a call to run_shell_command: it runs commands or changes files');
  });

  it('mode ANY among all the tools calls a read-only one; forced to the shell tool alone, it calls it and says it is simulated', async () => {
    for (const question of ['hello', 'do whatever you need']) {
      const answer = await gemini().models.generateContent({
        model: 'gemini-2.5-flash',
        contents: question,
        config: { tools: [{ functionDeclarations: GEMINI_CLI_TOOLS }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
      });
      expect(['list_directory', 'read_file']).toContain(answer.functionCalls?.[0]?.name);
    }
    const forced = await gemini().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'go',
      config: {
        tools: [{ functionDeclarations: GEMINI_CLI_TOOLS }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['run_shell_command'] } },
      },
    });
    expect(forced.functionCalls?.[0]?.name).toBe('run_shell_command');
    expect(forced.candidates![0].content!.parts![0].text).toBe(
      "[sandbox] simulated a call to run_shell_command (arguments invented from the tool's schema; no model chose it)",
    );
  });
});

describe('Claude Code and Codex against the sandbox', () => {
  const bash = {
    name: 'Bash',
    description: 'Executes a given bash command in a persistent shell session.',
    input_schema: COMMAND_SCHEMA as Anthropic.Tool.InputSchema,
  };
  const edit = { name: 'Edit', description: 'Performs exact string replacements in files.', input_schema: PATH_SCHEMA as Anthropic.Tool.InputSchema };
  const read = { name: 'Read', description: 'Reads a file from the local filesystem.', input_schema: PATH_SCHEMA as Anthropic.Tool.InputSchema };

  it('Claude Code, tool_choice any: only the read-only tool is ever called, streamed too', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const params = {
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      tools: [bash, edit, read],
      tool_choice: { type: 'any' as const },
      messages: [{ role: 'user' as const, content: 'Fix the failing test' }],
    };
    const whole = await client.messages.create(params);
    expect(whole.content.filter((block) => block.type === 'tool_use').map((block) => block.name)).toEqual(['Read']);
    expect(whole.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('[sandbox] simulated a call to Read') });
    const streamed = await client.messages.stream(params).finalMessage();
    expect(streamed.content.filter((block) => block.type === 'tool_use').map((block) => block.name)).toEqual(['Read']);
  });

  it('Claude Code, auto: "run the tests" calls nothing', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const message = await client.messages.create({
      model: 'claude-opus-4-5',
      max_tokens: 512,
      tools: [bash, edit, read],
      messages: [{ role: 'user', content: 'Run the tests with Bash and edit what fails' }],
    });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content.every((block) => block.type === 'text')).toBe(true);
  });

  it('Codex, required with only shell and apply_patch: no call at all', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'gpt-5-codex',
      tool_choice: 'required',
      tools: [
        { type: 'function', function: { name: 'shell', description: 'Runs a shell command and returns its output.', parameters: COMMAND_SCHEMA } },
        { type: 'function', function: { name: 'apply_patch', description: 'Use this tool to edit files.', parameters: COMMAND_SCHEMA } },
      ],
      messages: [{ role: 'user', content: 'Refactor the module' }],
    });
    expect(completion.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0].message.content).toContain('[gengate sandbox');
  });
});
