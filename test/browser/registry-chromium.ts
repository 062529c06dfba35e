/**
 * The Chromium build that the devDependency `@sparticuz/chromium` ships brotli-compressed inside its
 * npm tarball (nothing is downloaded at install or at run time). The package unpacks the program,
 * its fonts and SwiftShader into the temp directory; the NSS and expat libraries the program links
 * against, which a machine without a browser may lack, are unpacked here from the package's own
 * `al2023.tar.br` and put first on the browser's LD_LIBRARY_PATH, so that it needs nothing of the
 * system but glibc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export interface RegistryChromium {
  executablePath: string;
  /** Added to the browser's environment. */
  env: Record<string, string>;
}

export async function registryChromium(): Promise<RegistryChromium> {
  const { default: Chromium } = await import('@sparticuz/chromium');
  // The package exports no path but its entry point (build/<format>/index.js), next to bin/.
  const root = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..');
  const executablePath = await Chromium.executablePath(join(root, 'bin'));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const libraries = unpackLibraries(join(root, 'bin', 'al2023.tar.br'), join(tmpdir(), `gengate-chromium-libs-${version}`));
  return {
    executablePath,
    // Under LANG=C (or C.UTF-8) this build reports its language as "en-US@posix", which Intl refuses.
    env: { LD_LIBRARY_PATH: libraries, FONTCONFIG_PATH: join(tmpdir(), 'fonts'), LANG: 'en_US.UTF-8' },
  };
}

/** Unpacks the tarball once into `target` (through a sibling directory renamed into place, so that a reader never sees half of it); returns its lib/. */
function unpackLibraries(tarball: string, target: string): string {
  const libraries = join(target, 'lib');
  if (existsSync(libraries)) return libraries;
  const partial = mkdtempSync(`${target}-`);
  try {
    execFileSync('tar', ['-x', '-C', partial], { input: brotliDecompressSync(readFileSync(tarball)) });
    renameSync(partial, target);
  } catch (error) {
    if (!existsSync(libraries)) throw error;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return libraries;
}
