import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { MediaRef, TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import type { ChannelConfig, TaskProvider, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../../providers/types.js';
import { createSandboxProvider } from '../index.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function channel(options: Record<string, unknown> = {}): ChannelConfig {
  return { name: 'sandbox', provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 5_000, options };
}

/** An in-memory media store, as the engine's attempt would offer. */
function memoryStore() {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    async storeMedia(data: Uint8Array, mime: string, kind: MediaRef['kind']): Promise<MediaRef> {
      const mediaId = `m${files.size + 1}.png`;
      files.set(mediaId, data);
      return { mediaId, kind, mime, bytes: data.length };
    },
    async loadMedia(ref: MediaRef): Promise<Uint8Array> {
      const data = files.get(ref.mediaId);
      if (!data) throw new Error(`no media ${ref.mediaId}`);
      return data;
    },
  };
}

const store = memoryStore();
const gateway = createSandboxProvider({ taskMs: 0 });
const tasks = gateway.tasks as TaskProvider;
let taskCounter = 0;

function attempt(overrides: Partial<TaskSubmitAttempt> = {}): TaskSubmitAttempt {
  taskCounter++;
  return {
    channel: channel(),
    upstreamModel: 'imgtask-v6',
    signal: new AbortController().signal,
    requestId: `req_${taskCounter}`,
    taskId: `task_${taskCounter}`,
    storeMedia: store.storeMedia,
    loadMedia: store.loadMedia,
    ...overrides,
  };
}

function target(operation: TaskOperation, request: TaskRequest, submission: TaskSubmission, taskId = 'task_x'): TaskTarget {
  const { images, ...rest } = request;
  return {
    taskId,
    operation,
    upstreamModel: 'imgtask-v6',
    upstreamId: submission.upstreamId,
    upstreamData: JSON.parse(JSON.stringify(submission.upstreamData)),
    request: { ...rest, imageCount: images?.length },
    createdAt: T0,
  };
}

interface Finished {
  target: TaskTarget;
  observation: TaskObservation;
  media: MediaRef[];
}

/** Submits in instant mode and polls once: the task is done. */
async function run(operation: TaskOperation, request: TaskRequest, overrides: Partial<TaskSubmitAttempt> = {}, provider = tasks): Promise<Finished> {
  const a = attempt(overrides);
  const submission = await provider.submit(operation, request, a);
  const t = target(operation, request, submission, a.taskId);
  const observation = await provider.poll(t, { channel: a.channel, signal: a.signal });
  const media = (observation.outputs ?? []).map((output) => ('stored' in output ? output.stored : undefined)).filter((ref): ref is MediaRef => !!ref);
  return { target: t, observation, media };
}

function asParent(finished: Finished): TaskSubmitAttempt['parent'] {
  return { ...finished.target, result: { media: finished.media, seed: finished.observation.seed, buttons: finished.observation.buttons } };
}

async function pixelsOf(png: Uint8Array, size?: number) {
  const pipeline = sharp(png).removeAlpha();
  const { data, info } = await (size ? pipeline.resize(size, size, { fit: 'fill' }) : pipeline).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A region of a PNG scaled to 16×16 RGB, for comparing pictures by their overall look. */
async function thumb(png: Uint8Array, region?: { left: number; top: number; width: number; height: number }): Promise<Buffer> {
  const pipeline = region ? sharp(png).extract(region) : sharp(png);
  return pipeline.removeAlpha().resize(16, 16, { fit: 'fill' }).raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

function quadrant(size: number, n: number) {
  const half = size / 2;
  return { left: (n - 1) % 2 === 0 ? 0 : half, top: n <= 2 ? 0 : half, width: half, height: half };
}

async function solid(width: number, height: number, rgb: [number, number, number]): Promise<ImageInput> {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
  return { data, mediaType: 'image/png', width, height };
}

function meanColour(data: Buffer, width: number, region: { left: number; top: number; width: number; height: number }): [number, number, number] {
  const sums = [0, 0, 0];
  for (let y = region.top; y < region.top + region.height; y++) {
    for (let x = region.left; x < region.left + region.width; x++) {
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) sums[c] += data[i + c];
    }
  }
  const n = region.width * region.height;
  return [sums[0] / n, sums[1] / n, sums[2] / n];
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sandbox tasks: timeline', () => {
  it('goes submitted → running with rising progress → succeeded on the clock, from the task row alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const provider = createSandboxProvider({ taskMs: 60_000 }).tasks as TaskProvider;
    const a = attempt({ channel: channel({ taskMs: 1_000 }) });
    const request: TaskRequest = { model: 'imgtask-v6', prompt: 'a lighthouse' };
    const submission = await provider.submit('image.imagine', request, a);
    expect(submission.upstreamId).toMatch(/^sbx-[0-9a-f]{24}$/);
    expect(submission.observation).toMatchObject({ status: 'submitted' });
    const t = target('image.imagine', request, submission);
    const context = { channel: a.channel, signal: a.signal };

    const seen: TaskObservation[] = [];
    for (let ms = 0; ms <= 1_000; ms += 25) {
      vi.setSystemTime(T0 + ms);
      // A fresh provider each time: nothing is remembered between polls but the task row.
      const fresh = createSandboxProvider({ taskMs: 60_000 }).tasks as TaskProvider;
      seen.push(await fresh.poll(t, context));
    }
    expect(seen[0]).toEqual({ status: 'submitted', vendorStatus: 'SUBMITTED', progress: 0 });
    expect(seen[3].status).toBe('submitted'); // 75 ms: under a tenth
    expect(seen[4]).toMatchObject({ status: 'running', vendorStatus: 'IN_PROGRESS', progress: 0.1 });
    const running = seen.filter((o) => o.status === 'running');
    expect(running.length).toBeGreaterThan(30);
    const progress = seen.map((o) => o.progress ?? 0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(Math.max(...running.map((o) => o.progress ?? 1))).toBeLessThan(1);
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ status: 'succeeded', vendorStatus: 'SUCCESS', progress: 1 });
    expect(last.outputs).toHaveLength(1);
    expect(last.seed).toMatch(/^\d+$/);
    expect(last.buttons).toHaveLength(9);
    expect(seen.filter((o) => o.status === 'succeeded')).toHaveLength(1);
  });

  it('finishes on the first poll when taskMs is 0, and uses the gateway setting when the channel sets none', async () => {
    const instant = await run('image.imagine', { model: 'imgtask-v6', prompt: 'now' });
    expect(instant.observation.status).toBe('succeeded');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const slow = createSandboxProvider({ taskMs: 10_000 }).tasks as TaskProvider;
    const a = attempt();
    const request = { model: 'imgtask-v6', prompt: 'later' };
    const t = target('image.imagine', request, await slow.submit('image.imagine', request, a));
    vi.setSystemTime(T0 + 5_000);
    expect(await slow.poll(t, { channel: a.channel, signal: a.signal })).toMatchObject({ status: 'running', progress: 0.5 });
  });

  it('speaks Replicate-like words for imagegen1 tasks', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const a = attempt({ channel: channel({ taskMs: 1_000 }) });
    const request = { model: 'imagegen1-dev', prompt: 'x', width: 64, height: 64 };
    const t = target('image.generate', request, await tasks.submit('image.generate', request, a));
    const context = { channel: a.channel, signal: a.signal };
    expect((await tasks.poll(t, context)).vendorStatus).toBe('starting');
    vi.setSystemTime(T0 + 500);
    expect((await tasks.poll(t, context)).vendorStatus).toBe('processing');
    vi.setSystemTime(T0 + 1_000);
    expect((await tasks.poll(t, context)).vendorStatus).toBe('succeeded');
  });

  it('answers pollMany by upstream id, and fails a task whose record is unreadable', async () => {
    const a = await run('image.imagine', { model: 'imgtask-v6', prompt: 'one' });
    const b = await run('image.imagine', { model: 'imgtask-v6', prompt: 'two' });
    const broken = { ...a.target, upstreamId: 'sbx-broken', upstreamData: { startedAt: 'yesterday' } };
    const seen = await tasks.pollMany?.([a.target, b.target, broken], { channel: channel(), signal: new AbortController().signal });
    expect(seen?.get(a.target.upstreamId)?.status).toBe('succeeded');
    expect(seen?.get(b.target.upstreamId)?.seed).toBe(b.observation.seed);
    expect(seen?.get('sbx-broken')).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
  });

  it('polls soon, backs off to a second, and gives long tasks three times their length', () => {
    expect(tasks.pollPolicy(channel({ taskMs: 4_000 }))).toEqual({ firstDelayMs: 400, factor: 1.5, maxDelayMs: 1_000, deadlineMs: 600_000, maxBatch: 200 });
    expect(tasks.pollPolicy(channel({ taskMs: 0 })).firstDelayMs).toBe(50);
    expect(tasks.pollPolicy(channel({ taskMs: 3_600_000 }))).toMatchObject({ firstDelayMs: 500, deadlineMs: 10_800_000 });
  });
});

describe('sandbox tasks: failure injection', () => {
  it('runs a task of a failing model to about 60 %, then fails it without storing outputs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const before = store.files.size;
    const a = attempt({ channel: channel({ taskMs: 1_000, failModels: ['imgtask-fails'] }) });
    const request = { model: 'imgtask-fails', prompt: 'doomed' };
    const t = target('image.imagine', request, await tasks.submit('image.imagine', request, a));
    expect(store.files.size).toBe(before);
    const context = { channel: a.channel, signal: a.signal };
    vi.setSystemTime(T0 + 590);
    expect(await tasks.poll(t, context)).toMatchObject({ status: 'running', progress: 0.59 });
    vi.setSystemTime(T0 + 600);
    const failed = await tasks.poll(t, context);
    expect(failed.status).toBe('failed');
    expect(failed.vendorStatus).toBe('FAILURE');
    expect(failed.error?.code).toBe('upstream_failed');
    expect(failed.error?.message).toMatch(/^Simulated failure \(sandbox\): .*imgtask-fails/);
    expect(failed.outputs).toBeUndefined();
  });

  it('fails the share of tasks taskFailureRate asks for, picked by task id', async () => {
    const always = await run('image.describe', { model: 'imgtask-v6', images: [await solid(8, 8, [0, 0, 0])] }, { channel: channel({ taskFailureRate: 1 }) });
    expect(always.observation).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    expect(always.observation.error?.message).toContain('Simulated failure (sandbox)');
    const never = await run('image.describe', { model: 'imgtask-v6', images: [await solid(8, 8, [0, 0, 0])] }, { channel: channel({ taskFailureRate: 0 }) });
    expect(never.observation.status).toBe('succeeded');
  });
});

describe('sandbox tasks: imagine and its actions', () => {
  it('answers IMAGINE with a 2×2 grid of four different pictures, its seed and MJ-style buttons', async () => {
    const first = await run('image.imagine', { model: 'imgtask-v6', prompt: 'a cat in a hat' });
    const again = await run('image.imagine', { model: 'imgtask-v6', prompt: 'a cat in a hat' });
    const other = await run('image.imagine', { model: 'imgtask-v6', prompt: 'a dog' });
    expect(first.observation.seed).toBe(again.observation.seed);
    expect(first.observation.seed).not.toBe(other.observation.seed);
    expect(first.media).toHaveLength(1);
    expect(first.media[0]).toMatchObject({ kind: 'image', mime: 'image/png' });
    const grid = await store.loadMedia(first.media[0]);
    expect(await sharp(grid).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    const quads = await Promise.all([1, 2, 3, 4].map((n) => thumb(grid, quadrant(1024, n))));
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) expect(meanAbsDiff(quads[i], quads[j])).toBeGreaterThan(10);

    const buttons = first.observation.buttons ?? [];
    expect(buttons.map((b) => b.label)).toEqual(['U1', 'U2', 'U3', 'U4', 'V1', 'V2', 'V3', 'V4', '']);
    const hash = /^MJ::JOB::upsample::1::([0-9a-f-]{36})$/.exec(buttons[0].customId)?.[1];
    expect(hash).toBeDefined();
    expect(buttons[1]).toEqual({ customId: `MJ::JOB::upsample::2::${hash}`, label: 'U2', type: 2, style: 2 });
    expect(buttons[6]).toEqual({ customId: `MJ::JOB::variation::3::${hash}`, label: 'V3', type: 2, style: 2 });
    expect(buttons[8]).toEqual({ customId: `MJ::JOB::reroll::0::${hash}::SOLO`, emoji: '🔄', label: '', type: 2, style: 2 });
    expect(other.observation.buttons?.[0].customId).not.toBe(buttons[0].customId);
  });

  it('draws the simulated label on every quadrant', async () => {
    const { media } = await run('image.imagine', { model: 'imgtask-v6', prompt: 'label check' });
    const { data, width } = await pixelsOf(await store.loadMedia(media[0]));
    // The label band is a translucent black strip along each quadrant's bottom, with white text.
    for (const n of [1, 2, 3, 4]) {
      const q = quadrant(1024, n);
      const band = { left: q.left, top: q.top + q.height - 20, width: q.width, height: 20 };
      let white = 0;
      for (let y = band.top; y < band.top + band.height; y++) {
        for (let x = band.left; x < band.left + band.width; x++) {
          const i = (y * width + x) * 3;
          if (data[i] > 235 && data[i + 1] > 235 && data[i + 2] > 235) white++;
        }
      }
      expect(white).toBeGreaterThan(50);
    }
  });

  it('upscales the chosen quadrant to twice its size, keeping the seed, with no further buttons', async () => {
    const imagine = await run('image.imagine', { model: 'imgtask-v6', prompt: 'upscale me' });
    const grid = await store.loadMedia(imagine.media[0]);
    const customId = imagine.observation.buttons?.find((b) => b.label === 'U2')?.customId;
    const up = await run('image.action', { model: 'imgtask-v6', action: { customId: customId ?? '' } }, { parent: asParent(imagine) });
    expect(up.observation.status).toBe('succeeded');
    expect(up.observation.buttons).toBeUndefined();
    expect(up.observation.seed).toBe(imagine.observation.seed);
    const png = await store.loadMedia(up.media[0]);
    expect(await sharp(png).metadata()).toMatchObject({ width: 1024, height: 1024 });
    const upThumb = await thumb(png);
    expect(meanAbsDiff(upThumb, await thumb(grid, quadrant(1024, 2)))).toBeLessThan(4);
    for (const n of [1, 3, 4]) expect(meanAbsDiff(upThumb, await thumb(grid, quadrant(1024, n)))).toBeGreaterThan(10);
  });

  it('varies the chosen quadrant into a new grid, and rerolls into a fresh one', async () => {
    const imagine = await run('image.imagine', { model: 'imgtask-v6', prompt: 'vary me' });
    const grid = await store.loadMedia(imagine.media[0]);
    const parent = asParent(imagine);
    const button = (label: string) => imagine.observation.buttons?.find((b) => b.label === label)?.customId ?? '';

    const variation = await run('image.action', { model: 'imgtask-v6', action: { customId: button('V3') } }, { parent });
    expect(variation.observation.buttons).toHaveLength(9);
    expect(variation.observation.seed).not.toBe(imagine.observation.seed);
    const varied = await store.loadMedia(variation.media[0]);
    expect(await sharp(varied).metadata()).toMatchObject({ width: 1024, height: 1024 });
    const chosen = await thumb(grid, quadrant(1024, 3));
    const quads = await Promise.all([1, 2, 3, 4].map((n) => thumb(varied, quadrant(1024, n))));
    for (const q of quads) {
      const toChosen = meanAbsDiff(q, chosen);
      for (const n of [1, 2, 4]) expect(toChosen).toBeLessThan(meanAbsDiff(q, await thumb(grid, quadrant(1024, n))));
    }
    expect(meanAbsDiff(quads[0], quads[1])).toBeGreaterThan(2);

    const reroll = await run('image.action', { model: 'imgtask-v6', action: { customId: button('') } }, { parent });
    expect(reroll.observation.buttons).toHaveLength(9);
    expect(reroll.observation.seed).not.toBe(imagine.observation.seed);
    expect(meanAbsDiff(await thumb(await store.loadMedia(reroll.media[0])), await thumb(grid))).toBeGreaterThan(10);
  });

  it('refuses a customId of another shape, and a parent without a grid', async () => {
    const imagine = await run('image.imagine', { model: 'imgtask-v6', prompt: 'guard' });
    const parent = asParent(imagine);
    for (const customId of ['MJ::JOB::upsample::5::abc', 'MJ::JOB::reroll::1::abc', 'MJ::Inpaint::1::abc', 'MJ::JOB::zoom::1::abc', '']) {
      await expect(tasks.submit('image.action', { model: 'imgtask-v6', action: { customId } }, attempt({ parent }))).rejects.toMatchObject({
        kind: 'invalid_request',
      });
    }
    const u1 = imagine.observation.buttons?.[0].customId ?? '';
    const upscaled = await run('image.action', { model: 'imgtask-v6', action: { customId: u1 } }, { parent });
    const noGrid = tasks.submit('image.action', { model: 'imgtask-v6', action: { customId: u1 } }, attempt({ parent: asParent(upscaled) }));
    await expect(noGrid).rejects.toBeInstanceOf(GatewayError);
    await expect(noGrid).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(tasks.submit('image.action', { model: 'imgtask-v6', action: { customId: u1 } }, attempt())).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('sandbox tasks: blend', () => {
  it('composites a red and a blue image: their mix, and each of them, are in the grid', async () => {
    const red = await solid(64, 64, [255, 0, 0]);
    const blue = await solid(120, 40, [0, 0, 255]);
    const blend = await run('image.blend', { model: 'imgtask-v6', images: [red, blue] });
    expect(blend.observation.buttons).toHaveLength(9);
    expect(blend.observation.seed).toMatch(/^\d+$/);
    const { data, width, height } = await pixelsOf(await store.loadMedia(blend.media[0]));
    expect([width, height]).toEqual([1024, 1024]);
    // Quadrant 1 is the even mix: purple.
    const [r, g, b] = meanColour(data, width, { left: 200, top: 200, width: 100, height: 100 });
    expect(r).toBeGreaterThan(80);
    expect(b).toBeGreaterThan(80);
    expect(g).toBeLessThan(70);
    expect(Math.abs(r - b)).toBeLessThan(50);
    // Quadrant 4 lays them side by side: red on the left, blue on the right.
    const left = meanColour(data, width, { left: 560, top: 600, width: 100, height: 100 });
    const right = meanColour(data, width, { left: 880, top: 600, width: 100, height: 100 });
    expect(left[0]).toBeGreaterThan(180);
    expect(left[2]).toBeLessThan(80);
    expect(right[2]).toBeGreaterThan(180);
    expect(right[0]).toBeLessThan(80);
  });

  it('has the shape asked for: PORTRAIT 2:3, SQUARE 1:1 (default), LANDSCAPE 3:2', async () => {
    const images = [await solid(50, 50, [0, 200, 0]), await solid(50, 80, [200, 200, 0]), await solid(30, 30, [0, 0, 0])];
    for (const [dimensions, size] of [
      ['PORTRAIT', [1024, 1536]],
      ['SQUARE', [1024, 1024]],
      ['LANDSCAPE', [1536, 1024]],
      [undefined, [1024, 1024]],
    ] as const) {
      const { media } = await run('image.blend', { model: 'imgtask-v6', images, dimensions });
      const meta = await sharp(await store.loadMedia(media[0])).metadata();
      expect([meta.width, meta.height]).toEqual(size);
    }
  });

  it('refuses fewer than two images or more than five', async () => {
    const one = await solid(8, 8, [1, 2, 3]);
    await expect(tasks.submit('image.blend', { model: 'imgtask-v6', images: [one] }, attempt())).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(tasks.submit('image.blend', { model: 'imgtask-v6', images: Array(6).fill(one) }, attempt())).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });
});

describe('sandbox tasks: describe', () => {
  it('describes the real image: its size and main colour, four numbered lines after a simulated note, no media', async () => {
    const described = await run('image.describe', { model: 'imgtask-v6', images: [await solid(640, 480, [30, 170, 50])] });
    expect(described.observation.status).toBe('succeeded');
    expect(described.observation.outputs).toEqual([]);
    expect(described.observation.buttons).toBeUndefined();
    const text = described.observation.text ?? '';
    expect(text).toMatch(/^Simulated description \(gengate sandbox\)/);
    expect(text).toContain('640×480');
    expect(text).toContain('green');
    expect(text).toContain('--ar 4:3');
    for (const n of ['1️⃣', '2️⃣', '3️⃣', '4️⃣']) expect(text).toContain(n);

    const other = await run('image.describe', { model: 'imgtask-v6', images: [await solid(300, 500, [20, 40, 230])] });
    expect(other.observation.text).toContain('300×500');
    expect(other.observation.text).toContain('blue');
    expect(other.observation.text).toContain('portrait');
  });

  it('refuses a describe without an image', async () => {
    await expect(tasks.submit('image.describe', { model: 'imgtask-v6' }, attempt())).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('sandbox tasks: imagegen1 generate', () => {
  it('draws count pictures of width×height', async () => {
    const done = await run('image.generate', { model: 'imagegen1-dev', prompt: 'a tree', width: 320, height: 200, count: 3 });
    expect(done.media).toHaveLength(3);
    const thumbs: Buffer[] = [];
    for (const ref of done.media) {
      const png = await store.loadMedia(ref);
      expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 320, height: 200 });
      thumbs.push(await thumb(png));
    }
    expect(meanAbsDiff(thumbs[0], thumbs[1])).toBeGreaterThan(5);
    expect(done.observation.buttons).toBeUndefined();
    expect(done.observation.seed).toMatch(/^\d+$/);

    const seeded = await run('image.generate', { model: 'imagegen1-dev', prompt: 'a tree', seed: 42 });
    expect(seeded.observation.seed).toBe('42');
    expect(seeded.media).toHaveLength(1);
    expect(await sharp(await store.loadMedia(seeded.media[0])).metadata()).toMatchObject({ width: 1024, height: 1024 });
  });

  it('clamps sides, count and the pixel budget, and says so', async () => {
    const warnings: string[] = [];
    const done = await run('image.generate', { model: 'imagegen1-dev', prompt: 'big', width: 5000, height: 10, count: 9 }, { warn: (m) => warnings.push(m) });
    expect(done.media).toHaveLength(4);
    const meta = await sharp(await store.loadMedia(done.media[0])).metadata();
    expect(meta.height).toBe(64);
    expect(meta.width).toBeLessThanOrEqual(2048);
    expect(warnings.join(' ')).toContain('num_outputs');
    expect(warnings.join(' ')).toContain('width/height');

    const quiet: string[] = [];
    await run('image.generate', { model: 'imagegen1-dev', prompt: 'fits', width: 256, height: 256, count: 2 }, { warn: (m) => quiet.push(m) });
    expect(quiet).toEqual([]);
  });
});
