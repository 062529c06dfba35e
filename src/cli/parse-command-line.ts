/** `node:util` parseArgs, strict, with its errors turned into one-line usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export const CONFIG_OPTION = { config: { type: 'string' } } as const satisfies Options;

export function parseCommandLine<T extends Options>(command: string, args: string[], options: T, positionals: { min: number; max: number; names?: string }) {
  const parsed = parseStrictly(command, args, options);
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError(`"gengate ${command}" needs ${positionals.names ?? 'an argument'}`);
  if (count > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}" for "gengate ${command}"`);
  return parsed;
}

function parseStrictly<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    const option = /'(-[^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw new UsageError(`unknown option ${option} for "gengate ${command}"`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) throw new UsageError(`option ${option} needs a value`);
    throw new UsageError(`${command}: ${message.split('\n')[0]}`);
  }
}
