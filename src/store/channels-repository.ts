/**
 * Channels defined at run time. The credentials (`apiKey` and `headers`, which may carry an
 * upstream token too) and the provider `options` (some hold a secret, e.g. Replicate's
 * `webhookSecret`) are stored only encrypted, bound to the channel's name; the rest of the
 * definition is plain JSON. Rows written before options were sealed keep them in the plain part,
 * which is still read (and sealed at the row's next write).
 */
import type { Kysely } from 'kysely';
import type { ChannelDefinition } from '../config/types.js';
import { CredentialCipher, CredentialKeyError } from './credential-cipher.js';
import type { ChannelsTable, Database } from './schema.js';
import { bumpRevision } from './store-revisions.js';

type Credentials = Pick<ChannelDefinition, 'apiKey' | 'headers'> & { options?: ChannelDefinition['options'] };
type PlainPart = Omit<ChannelDefinition, 'name' | 'provider' | 'apiKey' | 'headers' | 'options'>;
/** A row's plain part as earlier versions wrote it (options in the clear). */
type StoredPlainPart = PlainPart & { options?: ChannelDefinition['options'] };

const associatedData = (name: string) => `gengate channel:${name}`;

class MissingChannel extends Error {
  constructor(readonly channel: string) {
    super(`no stored channel is named "${channel}"`);
  }
}

export class ChannelsRepository {
  private cipher?: CredentialCipher;

  /** `cipher` may be a function: the secret key is then loaded (or generated) on first use only. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cipherSource: CredentialCipher | (() => CredentialCipher),
  ) {}

  private getCipher(): CredentialCipher {
    this.cipher ??= this.cipherSource instanceof CredentialCipher ? this.cipherSource : this.cipherSource();
    return this.cipher;
  }

  private toRow(definition: ChannelDefinition, now: number): Omit<ChannelsTable, 'created_at'> {
    const { name, provider, apiKey, headers, options, ...plain } = definition;
    const cipher = this.getCipher();
    const credentials: Credentials = { apiKey, headers, options };
    return {
      name,
      provider,
      definition: JSON.stringify(plain satisfies PlainPart),
      credentials: cipher.encrypt(JSON.stringify(credentials), associatedData(name)),
      key_id: cipher.keyId,
      updated_at: now,
    };
  }

  private fromRow(row: ChannelsTable): ChannelDefinition {
    let credentials: Credentials;
    try {
      credentials = JSON.parse(this.getCipher().decrypt(row.credentials, associatedData(row.name))) as Credentials;
    } catch (error) {
      if (error instanceof CredentialKeyError) {
        throw new CredentialKeyError(`the stored credentials of channel "${row.name}" cannot be decrypted: ${error.message}`);
      }
      throw error;
    }
    const { options: clearOptions, ...plain } = JSON.parse(row.definition) as StoredPlainPart;
    const options = credentials.options ?? clearOptions ?? {};
    return { name: row.name, provider: row.provider, ...plain, apiKey: credentials.apiKey, headers: credentials.headers, options };
  }

  /** Every stored channel, by name; throws CredentialKeyError when one cannot be decrypted. */
  async list(): Promise<ChannelDefinition[]> {
    const rows = await this.db.selectFrom('channels').selectAll().orderBy('name').execute();
    return rows.map((row) => this.fromRow(row));
  }

  async get(name: string): Promise<ChannelDefinition | undefined> {
    const row = await this.db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? this.fromRow(row) : undefined;
  }

  /** Throws when a channel of that name exists. Every change bumps the `channels` revision in the same transaction. */
  async insert(definition: ChannelDefinition, now = Date.now()): Promise<void> {
    const row = { ...this.toRow(definition, now), created_at: now };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('channels').values(row).execute();
      await bumpRevision(trx, 'channels');
    });
  }

  /** Replaces the channel called `name` (and renames it when `definition.name` differs); false when there is none. */
  async update(name: string, definition: ChannelDefinition, now = Date.now()): Promise<boolean> {
    const row = this.toRow(definition, now);
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('channels').set(row).where('name', '=', name).executeTakeFirst();
      const updated = Number(result.numUpdatedRows) > 0;
      if (updated) await bumpRevision(trx, 'channels');
      return updated;
    });
  }

  /** The names of the stored channels, without decrypting anything. */
  async names(): Promise<string[]> {
    const rows = await this.db.selectFrom('channels').select('name').orderBy('name').execute();
    return rows.map((row) => row.name);
  }

  /**
   * Sets priority and weight of several channels in one transaction: all change, or none when
   * one is missing (`missing` names it).
   */
  async reorder(entries: ReadonlyArray<{ name: string; priority: number; weight: number }>, now = Date.now()): Promise<{ missing?: string }> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        for (const entry of entries) {
          const row = await trx.selectFrom('channels').select('definition').where('name', '=', entry.name).executeTakeFirst();
          if (!row) throw new MissingChannel(entry.name);
          const plain = { ...(JSON.parse(row.definition) as PlainPart), priority: entry.priority, weight: entry.weight };
          await trx
            .updateTable('channels')
            .set({ definition: JSON.stringify(plain), updated_at: now })
            .where('name', '=', entry.name)
            .execute();
        }
        return {};
      })
      .catch((error: unknown) => {
        if (error instanceof MissingChannel) return { missing: error.channel };
        throw error;
      });
  }

  /**
   * The gateway's own switch, for a channel whose credentials keep being refused: `false`
   * disables an enabled channel and marks it disabled by the gateway; `true` re-enables only a
   * channel so marked (one an operator disabled stays off). Touches no credential. True when
   * the channel changed; the change bumps the `channels` revision in the same transaction.
   */
  async setEnabledByGateway(name: string, enabled: boolean, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('channels').select('definition').where('name', '=', name).executeTakeFirst();
      if (!row) return false;
      const plain = JSON.parse(row.definition) as PlainPart;
      if (enabled ? plain.enabled || plain.autoDisabledAt === undefined : !plain.enabled) return false;
      const { autoDisabledAt: _cleared, ...rest } = plain;
      const next: PlainPart = enabled ? { ...rest, enabled: true } : { ...rest, enabled: false, autoDisabledAt: now };
      await trx
        .updateTable('channels')
        .set({ definition: JSON.stringify(next), updated_at: now })
        .where('name', '=', name)
        .execute();
      await bumpRevision(trx, 'channels');
      return true;
    });
  }

  /**
   * Re-seals every stored credential not sealed under the current key (after a rotation, with
   * the old key among the previous ones), in one transaction. Throws CredentialKeyError, naming
   * the channel, when one cannot be opened with any configured key.
   */
  async reencryptAll(now = Date.now()): Promise<{ total: number; reencrypted: number; keyId: string }> {
    const cipher = this.getCipher();
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('channels').selectAll().orderBy('name').execute();
      let reencrypted = 0;
      for (const row of rows) {
        if (CredentialCipher.keyIdOfEnvelope(row.credentials) === cipher.keyId) continue;
        const definition = this.fromRow(row);
        const { credentials, key_id } = this.toRow(definition, now);
        await trx.updateTable('channels').set({ credentials, key_id, updated_at: now }).where('name', '=', row.name).execute();
        reencrypted++;
      }
      return { total: rows.length, reencrypted, keyId: cipher.keyId };
    });
  }

  async delete(name: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('channels').where('name', '=', name).executeTakeFirst();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted) await bumpRevision(trx, 'channels');
      return deleted;
    });
  }
}
