/**
 * ffprobe / ffmpeg for tests that check the sandbox's videos with an independent decoder: the
 * system's (Debian's `ffmpeg`) when on PATH, else the static builds that the devDependencies
 * `@ffprobe-installer/ffprobe` and `@ffmpeg-installer/ffmpeg` ship in their platform packages.
 * Where neither runs these tests fail and say so, unless `GENGATE_SKIP_FFMPEG_TESTS=1` skips them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemBinary } from './system-binary.js';

export const SKIP_FFMPEG_TESTS = process.env.GENGATE_SKIP_FFMPEG_TESTS === '1';

type Tool = 'ffprobe' | 'ffmpeg';
const PACKAGES: Record<Tool, string> = { ffprobe: '@ffprobe-installer/ffprobe', ffmpeg: '@ffmpeg-installer/ffmpeg' };
const paths = new Map<Tool, string>();

/** The system's tool, else the package's; throws why neither runs. */
function toolPath(tool: Tool): string {
  const known = paths.get(tool);
  if (known) return known;
  let path = systemBinary(tool);
  if (!path) {
    try {
      path = (createRequire(import.meta.url)(PACKAGES[tool]) as { path: string }).path;
    } catch (error) {
      // These packages throw strings on a platform they have no build for.
      throw new Error(`${tool}: not on PATH, and ${PACKAGES[tool]} has none for this machine (${String(error)})`);
    }
  }
  try {
    execFileSync(path, ['-version'], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(`${tool} at ${path} does not run: ${(error as Error).message}`);
  }
  paths.set(tool, path);
  return path;
}

export function requireFfmpeg(): void {
  try {
    toolPath('ffprobe');
    toolPath('ffmpeg');
  } catch (error) {
    throw new Error(`${(error as Error).message}; run npm install, or set GENGATE_SKIP_FFMPEG_TESTS=1 to skip these tests`);
  }
}

function run(tool: Tool, args: string[]): Promise<Buffer> {
  const path = toolPath(tool);
  return new Promise((resolve, reject) => {
    execFile(path, args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${tool} failed: ${error.message}\n${stderr.toString()}`));
      else resolve(stdout);
    });
  });
}

/** Runs `work` with the bytes in a temporary file. */
async function withFile<T>(data: Uint8Array, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'gengate-video-'));
  try {
    const path = join(dir, 'video.mp4');
    await writeFile(path, data);
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ProbedVideo {
  codec: string;
  profile: string;
  width: number;
  height: number;
  /** Seconds, from the container. */
  duration: number;
  /** Frames actually decoded. */
  frames: number;
  pixelFormat: string;
}

/** `ffprobe -v error -show_streams -show_format -count_frames -of json`. */
export function probeVideo(mp4: Uint8Array): Promise<ProbedVideo> {
  return withFile(mp4, async (path) => {
    const out = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', path]);
    const json = JSON.parse(out.toString()) as { streams: Array<Record<string, string | number>>; format: Record<string, string> };
    const [stream] = json.streams;
    return {
      codec: String(stream.codec_name),
      profile: String(stream.profile),
      width: Number(stream.width),
      height: Number(stream.height),
      duration: Number(json.format.duration),
      frames: Number(stream.nb_read_frames),
      pixelFormat: String(stream.pix_fmt),
    };
  });
}

/** Every frame decoded to raw 8-bit 4:2:0 (Y, then U, then V, frame after frame); `-xerror` makes any decode error fail. */
export function decodeRawFrames(mp4: Uint8Array): Promise<Buffer> {
  return withFile(mp4, (path) => run('ffmpeg', ['-v', 'error', '-xerror', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']));
}

/** One frame (0-based) decoded to PNG. */
export function decodeFramePng(mp4: Uint8Array, index: number): Promise<Buffer> {
  return withFile(mp4, (path) =>
    run('ffmpeg', ['-v', 'error', '-i', path, '-vf', `select=eq(n\\,${index})`, '-vsync', '0', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-']),
  );
}
