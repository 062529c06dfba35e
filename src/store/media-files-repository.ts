/**
 * The media store's index: one row per stored file (owner, size, time) and the bytes each
 * owner wrote per UTC day, for the media quotas and the global cap (`media/quota-media-store.ts`).
 */
import { type Kysely, sql } from 'kysely';
import type { MediaFileRow, MediaIndex } from '../media/media-index.js';
import type { Database } from './schema.js';

/** PostgreSQL sums bigints into numerics, which arrive as text. */
const sumOfBytes = sql<string | number | null>`sum(bytes)`.as('total');

export class MediaFilesRepository implements MediaIndex {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a stored file and adds its size to its owner's bytes of `day`. */
  async add(file: MediaFileRow, day: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('media_files').values({ name: file.name, owner: file.owner, bytes: file.bytes, created_at: file.createdAt }).execute();
      await trx
        .insertInto('media_daily_writes')
        .values({ owner: file.owner, day, bytes: file.bytes })
        .onConflict((conflict) => conflict.columns(['owner', 'day']).doUpdateSet({ bytes: sql`media_daily_writes.bytes + ${file.bytes}` }))
        .execute();
    });
  }

  async remove(name: string): Promise<void> {
    await this.db.deleteFrom('media_files').where('name', '=', name).execute();
  }

  /** Bytes of `owner`'s files stored after `since` (older ones have expired). */
  async keptBytes(owner: string, since: number): Promise<number> {
    const row = await this.db.selectFrom('media_files').select(sumOfBytes).where('owner', '=', owner).where('created_at', '>', since).executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Bytes of every file the store holds (expired ones until they are swept). */
  async totalBytes(): Promise<number> {
    const row = await this.db.selectFrom('media_files').select(sumOfBytes).executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  async writtenOn(owner: string, day: number): Promise<number> {
    const row = await this.db.selectFrom('media_daily_writes').select('bytes').where('owner', '=', owner).where('day', '=', day).executeTakeFirst();
    return Number(row?.bytes ?? 0);
  }

  /** The oldest files, oldest first. */
  async oldest(limit: number): Promise<Array<{ name: string; bytes: number }>> {
    const rows = await this.db.selectFrom('media_files').select(['name', 'bytes']).orderBy('created_at').orderBy('name').limit(limit).execute();
    return rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) }));
  }

  /** Drops the rows of files stored at or before `before` (expired) and the daily counts of days before `beforeDay`. */
  async forget(before: number, beforeDay: number): Promise<void> {
    await this.db.deleteFrom('media_files').where('created_at', '<=', before).execute();
    await this.db.deleteFrom('media_daily_writes').where('day', '<', beforeDay).execute();
  }
}
