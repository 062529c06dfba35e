/** `gengate migrate`: opens the database without migrating, applies what is pending and says what it applied. */
import type { GatewayConfig } from '../config/types.js';
import { migrateStore, openStore } from '../store/open-store.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';

export async function migrateCommand(args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig): Promise<void> {
  const { values } = parseCommandLine('migrate', args, CONFIG_OPTION, { min: 0, max: 0 });
  const store = await openStore(loadConfig(values.config).databaseUrl, { migrate: false });
  try {
    const applied = await migrateStore(store);
    console.log(
      applied.length === 0
        ? `database schema is up to date (${store.dialect}); nothing to apply`
        : `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${store.dialect}): ${applied.join(', ')}`,
    );
  } finally {
    await store.close();
  }
}
