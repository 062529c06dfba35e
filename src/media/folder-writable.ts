/** The media folder's part of `/readyz`: it exists (made if missing) and this process may write in it. */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';

export async function folderNotWritable(dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true });
  await access(dir, constants.W_OK);
  return undefined;
}
