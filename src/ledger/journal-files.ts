/**
 * Names of usage journal files and which of them belong to a process that is gone. A file is
 * `<pid>.<instance>.<segment>.journal`: the pid tells whether its writer may still run, the
 * instance (random per start) tells a restarted process with a reused pid from its predecessor.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface JournalFile {
  path: string;
  pid: number;
  instance: string;
  segment: number;
}

const NAME = /^(\d{1,10})\.([A-Za-z0-9]{1,64})\.(\d{1,10})\.journal$/;

export function journalFileName(pid: number, instance: string, segment: number): string {
  return `${pid}.${instance}.${segment}.journal`;
}

export function listJournalFiles(dir: string): JournalFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: JournalFile[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (match) files.push({ path: join(dir, name), pid: Number(match[1]), instance: match[2], segment: Number(match[3]) });
  }
  return files.sort((a, b) => a.instance.localeCompare(b.instance) || a.segment - b.segment);
}

/** Journal instances running in this process (a test may build several gateways in one process). */
export const liveInstances = new Set<string>();

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the writer of a journal file is gone. Another running pid is taken as alive (its
 * file waits for a later start), so a live sibling's open calls are never closed as interrupted.
 */
export function isAbandoned(file: JournalFile, selfPid = process.pid, exists = processExists): boolean {
  if (file.pid === selfPid) return !liveInstances.has(file.instance);
  return !exists(file.pid);
}
