/**
 * The secret key settings, checked when the configuration loads: a malformed key stops the start
 * naming its variable, instead of failing on the first stored credential or sealed response. An
 * empty value is an error, not "unset": with it, each replica would silently generate its own key.
 */
import { decodeSecretKey, malformedSecretKeyMessage } from '../core/secret-key-text.js';
import { ConfigError } from './config-error.js';

function checked(text: string, origin: string): string {
  if (!decodeSecretKey(text)) throw new ConfigError(malformedSecretKeyMessage(origin));
  return text;
}

/** `GENGATE_SECRET_KEY`, else the file's `secretKey`; undefined when neither is set (the data folder's key file is used). */
export function secretKeySetting(fromEnv: string | undefined, fromFile: unknown): string | undefined {
  if (fromEnv !== undefined) {
    if (fromEnv.trim() === '') {
      throw new ConfigError(
        'GENGATE_SECRET_KEY is set but empty: set it to 32 bytes in base64 or hex (e.g. the output of `openssl rand -base64 32`), ' +
          'or unset it to let the gateway generate one in <dataDir>/secret.key',
      );
    }
    return checked(fromEnv, 'GENGATE_SECRET_KEY');
  }
  if (fromFile === undefined || fromFile === null) return undefined;
  if (typeof fromFile !== 'string' || fromFile.trim() === '') {
    throw new ConfigError(
      'secretKey in the config file is empty or not a string: set it to 32 bytes in base64 or hex, or remove it to let the gateway generate one in <dataDir>/secret.key',
    );
  }
  return checked(fromFile, 'secretKey (config file)');
}

/** Each key of `GENGATE_SECRET_KEY_PREVIOUS` (or `previousSecretKeys`), checked; `origin` names where they came from. */
export function checkedPreviousKeys(keys: string[], origin: string): string[] {
  return keys.map((key, i) => checked(key, `${origin} (key ${i + 1})`));
}
