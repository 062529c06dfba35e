import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFramePng, probeVideo, requireFfmpeg, SKIP_FFMPEG_TESTS } from '../../../test/helpers/ffmpeg.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { MediaRef, TaskObservation, TaskRequest } from '../../core/task.js';
import type { ChannelConfig, TaskProvider, TaskSubmitAttempt } from '../../providers/types.js';
import { createSandboxProvider } from '../index.js';

const channel: ChannelConfig = { name: 'sandbox', provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 5_000, options: {} };
const files = new Map<string, Uint8Array>();
const tasks = createSandboxProvider({ taskMs: 0 }).tasks as TaskProvider;
let counter = 0;

function attempt(signal = new AbortController().signal, warnings: string[] = []): TaskSubmitAttempt {
  counter++;
  return {
    channel,
    upstreamModel: 'video-01',
    signal,
    requestId: `req_${counter}`,
    taskId: `task_${counter}`,
    warn: (message) => warnings.push(message),
    async storeMedia(data, mime, kind): Promise<MediaRef> {
      const mediaId = `m${files.size + 1}.${mime === 'video/mp4' ? 'mp4' : 'png'}`;
      files.set(mediaId, data);
      return { mediaId, kind, mime, bytes: data.length };
    },
    async loadMedia(ref) {
      return files.get(ref.mediaId) as Uint8Array;
    },
  };
}

/** Submits in instant mode and polls once: the task is done. */
async function generate(request: Partial<TaskRequest>, a = attempt()): Promise<{ observation: TaskObservation; media: MediaRef[] }> {
  const submission = await tasks.submit('video.generate', { model: 'videogen1-video-01', ...request }, a);
  const observation = await tasks.poll(
    {
      taskId: a.taskId,
      operation: 'video.generate',
      upstreamModel: a.upstreamModel,
      upstreamId: submission.upstreamId,
      upstreamData: JSON.parse(JSON.stringify(submission.upstreamData)),
      request: { model: 'videogen1-video-01' },
      createdAt: Date.now(),
    },
    { channel, signal: a.signal },
  );
  const media = (observation.outputs ?? []).map((output) => ('stored' in output ? output.stored : undefined)).filter((ref): ref is MediaRef => !!ref);
  return { observation, media };
}

function bytesOf(ref: MediaRef): Uint8Array {
  const data = files.get(ref.mediaId);
  if (!data) throw new Error(`no media ${ref.mediaId}`);
  return data;
}

async function refusal(request: Partial<TaskRequest>): Promise<GatewayError> {
  const error = await tasks.submit('video.generate', { model: 'videogen1-video-01', ...request }, attempt()).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

async function rgbAt(png: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at], data[at + 1], data[at + 2]];
}

describe('sandbox video.generate', () => {
  it('lists video.generate among its task operations', () => {
    expect(tasks.operations.has('video.generate')).toBe(true);
  });

  it('refuses lengths, resolutions and aspect ratios it cannot make, naming the field', async () => {
    expect(await refusal({ seconds: 30 })).toMatchObject({ kind: 'invalid_request', param: 'seconds' });
    expect(await refusal({ resolution: '4k' })).toMatchObject({ kind: 'invalid_request', param: 'resolution' });
    expect(await refusal({ aspectRatio: 'wide' })).toMatchObject({ kind: 'invalid_request', param: 'aspectRatio' });
  });

  it('gives the same video for the same request and seed', async () => {
    const request = { prompt: 'a fox', resolution: '144p', seconds: 1, seed: 42 };
    const [one, two] = [await generate(request), await generate(request)];
    expect(one.observation.seed).toBe('42');
    expect(Buffer.from(bytesOf(one.media[0])).equals(Buffer.from(bytesOf(two.media[0])))).toBe(true);
  });

  it('stops encoding at once when the attempt is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = tasks.submit('video.generate', { model: 'videogen1-video-01', resolution: '1080p', seconds: 20 }, attempt(controller.signal));
    setTimeout(() => controller.abort(), 300);
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('client_closed');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('keeps the event loop free while a long 1080p clip encodes', async () => {
    let last = Date.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = Date.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 10);
    try {
      const { media } = await generate({ resolution: '1080p', aspectRatio: '16:9', seconds: 20 });
      expect(media[0]).toMatchObject({ kind: 'video', width: 1920, height: 1080, seconds: 20 });
    } finally {
      clearInterval(ticker);
    }
    // Encoding on this thread would stall it for the whole encode (well over a second here).
    expect(longestGap).toBeLessThan(600);
  }, 60_000);
});

describe.skipIf(SKIP_FFMPEG_TESTS)('sandbox video.generate, read back by ffmpeg', () => {
  beforeAll(() => requireFfmpeg());

  it('makes a playable 720p 16:9 H.264 MP4 of 5 s by default, and its thumbnail', async () => {
    const { observation, media } = await generate({ prompt: 'waves on a beach' });
    expect(observation).toMatchObject({ status: 'succeeded', vendorStatus: 'succeeded', usage: { seconds: 5 } });
    expect(media).toHaveLength(2);
    const [video, thumbnail] = media;
    expect(video).toMatchObject({ kind: 'video', mime: 'video/mp4', width: 1280, height: 720, seconds: 5 });
    expect(thumbnail).toMatchObject({ kind: 'image', mime: 'image/png', width: 1280, height: 720 });

    const mp4 = bytesOf(video);
    expect(video.bytes).toBe(mp4.length);
    const probed = await probeVideo(mp4);
    expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720, frames: 40 });
    expect(Math.abs(probed.duration - 5)).toBeLessThan(0.5);

    const meta = await sharp(bytesOf(thumbnail)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1280, height: 720 });

    const [first, middle] = [await decodeFramePng(mp4, 0), await decodeFramePng(mp4, 20)];
    const [a, b] = [await sharp(first).raw().toBuffer(), await sharp(middle).raw().toBuffer()];
    expect(a.length).toBe(1280 * 720 * 3);
    expect(a.equals(b)).toBe(false);
  }, 60_000);

  it('makes the asked portrait size and length, starting from the given first frame', async () => {
    const red: ImageInput = {
      data: await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 230, g: 20, b: 20 } } })
        .png()
        .toBuffer(),
      mediaType: 'image/png',
      width: 64,
      height: 64,
    };
    const warnings: string[] = [];
    const { media } = await generate(
      { resolution: '480p', aspectRatio: '9:16', seconds: 2, images: [red, red], imageRoles: ['first_frame', 'last_frame'] },
      attempt(undefined, warnings),
    );
    const probed = await probeVideo(bytesOf(media[0]));
    expect(probed).toMatchObject({ codec: 'h264', width: 480, height: 854, frames: 16 });
    expect(Math.abs(probed.duration - 2)).toBeLessThan(0.5);
    expect(warnings.join(' ')).toMatch(/^images: /);
    // Away from the drawings (top left) and the label band (bottom), the picture is the red first frame.
    const [r, g, b] = await rgbAt(bytesOf(media[1]), 440, 600);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(70);
    expect(b).toBeLessThan(70);
  }, 60_000);
});
