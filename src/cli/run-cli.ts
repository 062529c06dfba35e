/**
 * The `gengate` commands: `start` runs the gateway; `keys create|list|revoke` manage API keys;
 * `accounts create|link|list` manage dashboard accounts; `migrate` brings the database schema up to date; `tasks ledger`
 * shows a task's billing; `secrets rotate` re-encrypts stored credentials under the current secret key. Each command is in its own file here.
 */
import { accountsCommand } from './accounts-command.js';
import { keysCommand } from './keys-command.js';
import { debugDetail, describeFailure } from './describe-failure.js';
import { migrateCommand } from './migrate-command.js';
import { secretsCommand } from './secrets-command.js';
import { startCommand } from './start-command.js';
import { tasksCommand } from './tasks-command.js';
import { USAGE, UsageError } from './usage.js';
import { loadConfig } from '../config/load-config.js';

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
  if (command === 'secrets') return secretsCommand(rest, loadConfigFrom);
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
