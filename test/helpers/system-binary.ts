/**
 * A program on PATH (Debian's ffmpeg or chromium), which the tests prefer to the copy an npm
 * package ships. `GENGATE_TEST_NO_SYSTEM_BINARIES=1` hides them, so that a machine that has them
 * can run the tests as a fresh one would, on the packages' copies alone (`.ci/run` does).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const SYSTEM_BINARIES_HIDDEN = process.env.GENGATE_TEST_NO_SYSTEM_BINARIES === '1';

/** The path of `name` on PATH, or undefined (always undefined while system binaries are hidden). */
export function systemBinary(name: string): string | undefined {
  if (SYSTEM_BINARIES_HIDDEN) return undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
