/** The instructions of a Dockerfile, continuation lines joined, comments dropped: what a test compares with the gateway. */
import { readFileSync } from 'node:fs';

export interface Instruction {
  /** Upper case: FROM, RUN, ENV… */
  keyword: string;
  /** The rest of the instruction, on one line. */
  args: string;
}

export function readDockerfile(path: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    const space = whole.indexOf(' ');
    instructions.push({ keyword: whole.slice(0, space).toUpperCase(), args: whole.slice(space + 1).trim() });
  }
  return instructions;
}

/** The instructions of the last stage (the image that runs). */
export function finalStage(instructions: Instruction[]): Instruction[] {
  const from = instructions.map((instruction) => instruction.keyword).lastIndexOf('FROM');
  return instructions.slice(from);
}

/** `ENV A=1 B=2` instructions of a stage, as one record. */
export function envOf(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage) {
    if (keyword !== 'ENV') continue;
    for (const pair of args.split(/\s+/)) {
      const equals = pair.indexOf('=');
      if (equals > 0) env[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
  }
  return env;
}

/** The exec form (`["node", "-e", "…"]`) of CMD, ENTRYPOINT or what HEALTHCHECK's CMD runs. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

export function only(stage: Instruction[], keyword: string): Instruction {
  const found = stage.filter((instruction) => instruction.keyword === keyword);
  if (found.length !== 1) throw new Error(`expected one ${keyword} in the final stage, found ${found.length}`);
  return found[0];
}
