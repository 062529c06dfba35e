/**
 * `gengate secrets rotate`: re-encrypts every stored channel credential under the current
 * secret key (GENGATE_SECRET_KEY or <dataDir>/secret.key), opening old ones with the keys of
 * GENGATE_SECRET_KEY_PREVIOUS, and says how many it changed.
 */
import type { GatewayConfig } from '../config/types.js';
import { ChannelsRepository } from '../store/channels-repository.js';
import { loadCredentialCipher } from '../store/credential-cipher.js';
import { openStore } from '../store/open-store.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

export async function secretsCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'rotate') {
    throw new UsageError(action ? `unknown secrets action "${action}": use rotate` : '"gengate secrets" needs an action: rotate');
  }
  const { values } = parseCommandLine('secrets rotate', rest, CONFIG_OPTION, { min: 0, max: 0 });
  const config = loadConfig(values.config);
  const store = await openStore(config.databaseUrl);
  try {
    const channels = new ChannelsRepository(store.db, () => loadCredentialCipher(config));
    const { total, reencrypted, keyId } = await channels.reencryptAll();
    const noun = (n: number) => `${n} stored channel${n === 1 ? '' : 's'}`;
    console.log(
      reencrypted === 0
        ? `all ${noun(total)} already sealed under secret key ${keyId}; nothing to re-encrypt`
        : `re-encrypted ${reencrypted} of ${noun(total)} under secret key ${keyId}; the previous keys are no longer needed for them`,
    );
  } finally {
    await store.close();
  }
}
