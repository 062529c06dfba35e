/**
 * Who owns which stored file, and how many bytes each owner wrote per UTC day: what the quota
 * media store asks of its index (`store/media-files-repository.ts` keeps it in the database).
 */
export interface MediaFileRow {
  name: string;
  owner: string;
  bytes: number;
  createdAt: number;
}

export interface MediaIndex {
  /** Records a stored file and adds its size to its owner's bytes of `day`. */
  add(file: MediaFileRow, day: number): Promise<void>;
  remove(name: string): Promise<void>;
  /** Bytes of `owner`'s files stored after `since` (older ones have expired). */
  keptBytes(owner: string, since: number): Promise<number>;
  /** Bytes of every file the store holds (expired ones until they are swept). */
  totalBytes(): Promise<number>;
  writtenOn(owner: string, day: number): Promise<number>;
  /** The oldest files, oldest first. */
  oldest(limit: number): Promise<Array<{ name: string; bytes: number }>>;
  /** Drops the rows of files stored at or before `before` (expired) and the daily counts of days before `beforeDay`. */
  forget(before: number, beforeDay: number): Promise<void>;
}
