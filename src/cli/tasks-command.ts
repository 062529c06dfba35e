/** `gengate tasks ledger TASK_ID`: a task's status and its ledger entries (reserve, then one settle or refund). */
import type { GatewayConfig } from '../config/types.js';
import { openStore } from '../store/open-store.js';
import { formatNusd } from '../core/money.js';
import { TasksRepository } from '../store/tasks-repository.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

export async function tasksCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'ledger') {
    throw new UsageError(action ? `unknown tasks action "${action}": use ledger` : '"gengate tasks" needs an action: ledger');
  }
  const { values, positionals } = parseCommandLine(
    'tasks ledger',
    rest,
    { ...CONFIG_OPTION, json: { type: 'boolean' } },
    { min: 1, max: 1, names: 'a TASK_ID' },
  );
  const id = positionals[0];
  const store = await openStore(loadConfig(values.config).databaseUrl);
  try {
    const tasks = new TasksRepository(store.db, store);
    const task = await tasks.get(id);
    if (!task) {
      console.error(`gengate: no task ${id}`);
      process.exitCode = 1;
      return;
    }
    const entries = await tasks.ledger(id);
    if (values.json) {
      console.log(JSON.stringify({ id, owner: task.owner, model: task.model, status: task.status, ledger: entries }, null, 2));
      return;
    }
    console.log(`task ${id}  ${task.operation}  ${task.model}  ${task.status}  owner ${task.owner}`);
    for (const entry of entries) {
      console.log(`  ${new Date(entry.created_at).toISOString()}  ${entry.kind.padEnd(7)}  $${formatNusd(Number(entry.amount_nusd))}`);
    }
  } finally {
    await store.close();
  }
}
