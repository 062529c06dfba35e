#!/usr/bin/env node
/**
 * The `gengate` command: `start` runs the gateway; `keys create|list|revoke` manage API keys;
 * `accounts create|link|list` manage dashboard accounts; `migrate` brings the database schema up to date; `tasks ledger` shows a task's billing. Each command is in `src/cli/`.
 */
import { accountsCommand } from './cli/accounts-command.js';
import { keysCommand } from './cli/keys-command.js';
import { debugDetail, describeFailure } from './cli/describe-failure.js';
import { migrateCommand } from './cli/migrate-command.js';
import { startCommand } from './cli/start-command.js';
import { tasksCommand } from './cli/tasks-command.js';
import { USAGE, UsageError } from './cli/usage.js';
import { loadConfig } from './config/load-config.js';

const loadConfigFrom = (configPath: string | undefined) => loadConfig({ configPath });

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
  if (command === 'start') return startCommand(rest, loadConfigFrom);
  if (command === 'keys') return keysCommand(rest, loadConfigFrom);
  if (command === 'accounts') return accountsCommand(rest, loadConfigFrom);
  if (command === 'migrate') return migrateCommand(rest, loadConfigFrom);
  if (command === 'tasks') return tasksCommand(rest, loadConfigFrom);
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
