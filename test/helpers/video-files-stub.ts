/**
 * Adds what the video download routes and the OpenAI videos surface need to a
 * `videoSurfaceStub`: result files kept in memory (opened whole or as a byte range, as the
 * engine's `openResult` does, and expiring), owner-only pages of video tasks in the engine's
 * order, and owner-only removal. Every open is recorded with the range asked.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaRef, Task } from '../../src/core/task.js';
import type { ByteRange } from '../../src/media/media-store.js';
import type { VideoSurfaceStub } from './video-surface-stub.js';

export interface StoredFile {
  data: Buffer;
  mediaType: string;
  /** When the file goes (Unix ms); an open after it answers `expired`. */
  expiresAt: number;
}

export interface VideoFilesStub {
  files: Map<string, StoredFile>;
  opens: Array<{ mediaId: string; range?: ByteRange }>;
  removed: string[];
  /** Keeps `data` as a result file; resolves its MediaRef (hashed, as the engine stores videos). */
  store(mediaId: string, kind: MediaRef['kind'], mediaType: string, data: Buffer, expiresAt?: number): MediaRef;
  reset(): void;
}

export function withVideoFiles(stub: VideoSurfaceStub): VideoFilesStub {
  const files = new Map<string, StoredFile>();
  const opens: VideoFilesStub['opens'] = [];
  const removed: string[] = [];
  const tasks = stub.services.tasks;
  tasks.openResult = async (task: Task, index: number, range?: ByteRange) => {
    const ref = task.status === 'succeeded' ? task.result?.media[index] : undefined;
    if (!ref) return { kind: 'missing' };
    opens.push(range ? { mediaId: ref.mediaId, range } : { mediaId: ref.mediaId });
    const file = files.get(ref.mediaId);
    if (!file || file.expiresAt <= Date.now()) return { kind: 'expired' };
    const data = range ? file.data.subarray(range.start, range.end + 1) : file.data;
    return { kind: 'found', media: { body: Readable.from([data]), mediaType: file.mediaType, size: file.data.length, expiresAt: file.expiresAt }, ref };
  };
  tasks.page = async (key, query) => {
    const sign = query.order === 'asc' ? 1 : -1;
    const order = (a: Task, b: Task) => sign * (a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let mine = [...stub.tasks.values()].filter((task) => task.owner === key.id && task.operation === query.operation).sort(order);
    if (query.after !== undefined) {
      const anchor = mine.find((task) => task.id === query.after);
      if (!anchor) return { tasks: [], hasMore: false };
      mine = mine.filter((task) => order(task, anchor) > 0);
    }
    return { tasks: mine.slice(0, query.limit), hasMore: mine.length > query.limit };
  };
  tasks.remove = async (key, id) => {
    const task = stub.tasks.get(id);
    if (!task || task.owner !== key.id) return false;
    stub.tasks.delete(id);
    removed.push(id);
    return true;
  };
  return {
    files,
    opens,
    removed,
    store(mediaId, kind, mediaType, data, expiresAt = Date.now() + 3_600_000) {
      files.set(mediaId, { data, mediaType, expiresAt });
      return { mediaId, kind, mime: mediaType, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    },
    reset() {
      files.clear();
      opens.length = 0;
      removed.length = 0;
    },
  };
}
