/**
 * The `gengate` commands: `start` runs the gateway; `keys create|list|revoke` manage API keys;
 * `accounts create|link|list` manage dashboard accounts; `limits list|set|clear` and `budgets list|set|clear` the rules of docs/limits.md; `migrate` brings the database schema up to date; `tasks ledger`
 * shows a task's billing; `secrets rotate` re-encrypts stored credentials under the current secret key. Each command is in its own file here.
 */
import type { GatewayConfig } from '../config/types.js';
import { debugDetail, describeFailure } from './describe-failure.js';
import { USAGE, UsageError } from './usage.js';
import { loadConfig } from '../config/load-config.js';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';

type Command = (args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig) => Promise<void>;

/**
 * Each command's module is imported only when that command runs: `start` loads the whole gateway
 * (Fastify, the surfaces, the task engine), which `keys list` and the other short commands never need.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./start-command.js')).startCommand,
  keys: async () => (await import('./keys-command.js')).keysCommand,
  accounts: async () => (await import('./accounts-command.js')).accountsCommand,
  migrate: async () => (await import('./migrate-command.js')).migrateCommand,
  tasks: async () => (await import('./tasks-command.js')).tasksCommand,
  limits: async () => (await import('./limits-command.js')).limitsCommand,
  budgets: async () => (await import('./budgets-command.js')).budgetsCommand,
  secrets: async () => (await import('./secrets-command.js')).secretsCommand,
  models: async () => (await import('./models-command.js')).modelsCommand,
};

const loadConfigFrom = (configPath: string | undefined) => loadConfig({ configPath, providers: PROVIDER_DESCRIPTORS });

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load) return (await load())(rest, loadConfigFrom);
  throw new UsageError(command.startsWith('-') ? `unknown option ${command}: a command comes first` : `unknown command "${command}"`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const failure = describeFailure(error);
  console.error(`gengate: ${failure.message}`);
  if (failure.showUsage) console.error(`\n${USAGE}`);
  const level = process.env.GENGATE_LOG_LEVEL;
  if (level === 'debug' || level === 'trace') {
    const detail = debugDetail(error);
    if (detail) console.error(detail);
  }
  process.exit(failure.exitCode);
});
