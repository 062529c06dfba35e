/** Model changes stored at run time (admin API), one row per model id. */
import type { Kysely } from 'kysely';
import type { ModelOverride } from '../config/types.js';
import type { Database } from './schema.js';
import { bumpRevision } from './store-revisions.js';

interface StoredModelOverride {
  /** Parsed JSON as stored; checked again by whoever applies it. */
  override: Record<string, unknown> & { id: string };
  updatedAt: number;
}

export class ModelOverridesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<StoredModelOverride[]> {
    const rows = await this.db.selectFrom('model_overrides').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ override: { ...(JSON.parse(row.definition) as Record<string, unknown>), id: row.id }, updatedAt: row.updated_at }));
  }

  /** Stores the override of a model, replacing the one it had; every process reloads the catalog. */
  async put(override: ModelOverride, now: number): Promise<void> {
    const { id, ...definition } = override;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('model_overrides')
        .values({ id, definition: JSON.stringify(definition), updated_at: now })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ definition: JSON.stringify(definition), updated_at: now }))
        .execute();
      await bumpRevision(trx, 'catalog');
    });
  }

  /** False when the model had no stored override. */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('model_overrides').where('id', '=', id).executeTakeFirst();
      const removed = Number(result.numDeletedRows) > 0;
      if (removed) await bumpRevision(trx, 'catalog');
      return removed;
    });
  }
}
