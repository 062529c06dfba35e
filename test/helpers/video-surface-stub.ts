/**
 * Stub gateway services for the video surfaces' tests: two keys, an in-memory task table the
 * surface submits into (the submitted task is already running, as an engine may hand it back),
 * owner-only lookups and cancels, and a guarded-fetch stand-in that serves one tiny PNG.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import type { ImageInput } from '../../src/core/image.js';
import type { AuthenticatedKey } from '../../src/core/key.js';
import type { Task, TaskSurface } from '../../src/core/task.js';
import type { GatewayServices, TaskCall } from '../../src/gateway/contract.js';
import { installJsonBodyParser } from '../../src/http/json-body-parser.js';
import type { Surface } from '../../src/surfaces/types.js';
import { pngHeader } from './image-headers.js';
import { unusedServices } from './unused-services.js';

export const VIDEO_KEY = 'gg-video-test-key';
export const OTHER_VIDEO_KEY = 'gg-video-other-key';
export const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
/** The one image URL the stub fetch serves; every other URL is refused naming the field. */
export const IMAGE_URL = 'https://img.example/cat.png';
export const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function videoTask(surface: TaskSurface, id: string, owner: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    owner,
    surface,
    operation: 'video.generate',
    model: 'videogen1-video-01',
    request: { model: 'videogen1-video-01', prompt: 'waves at dusk', seconds: 5, aspectRatio: '16:9', publicBaseUrl: 'http://gw.example' },
    status: 'submitted',
    progress: 0,
    priceNusd: 500_000_000,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export interface VideoSurfaceStub {
  services: GatewayServices;
  submits: TaskCall[];
  cancels: string[];
  fetched: string[];
  tasks: Map<string, Task>;
  /** Thrown by the next submits, when set (an engine or provider refusal). */
  fail: { submit?: unknown };
  reset(): void;
}

export function videoSurfaceStub(surface: TaskSurface, newId = 'task_abcdefghijklmnopqrstuvwxyz'): VideoSurfaceStub {
  const submits: TaskCall[] = [];
  const cancels: string[] = [];
  const fetched: string[] = [];
  const tasks = new Map<string, Task>();
  const fail: { submit?: unknown } = {};
  const services: GatewayServices = {
    ...unusedServices,
    async authenticate(presented) {
      if (presented === VIDEO_KEY) return { id: 'key-1', name: 'test', models: null, isMaster: false, accountId: null };
      if (presented === OTHER_VIDEO_KEY) return { id: 'key-2', name: 'other', models: null, isMaster: false, accountId: null };
      throw new GatewayError('authentication', presented ? 'invalid API key' : 'missing API key');
    },
    chat: () => {
      throw new Error('chat is not used by this test');
    },
    listModels: () => [],
    async fetchImage(url: string, param: string): Promise<ImageInput> {
      fetched.push(url);
      if (url !== IMAGE_URL) throw new GatewayError('invalid_request', `${param}: the image could not be fetched`, { param, code: 'image_fetch_failed' });
      return { data: pngHeader(4, 3), mediaType: 'image/png', width: 4, height: 3, filename: 'cat.png' };
    },
    tasks: {
      async submit(call) {
        submits.push(call);
        if (fail.submit) throw fail.submit;
        const { images, ...request } = call.request;
        const task = videoTask(surface, newId, call.key.id, {
          model: call.request.model,
          request: { ...request, ...(images ? { imageCount: images.length } : {}), publicBaseUrl: call.publicBaseUrl },
          status: 'running',
          startedAt: T0 + 500,
          updatedAt: T0 + 500,
          callback: call.callback,
        });
        tasks.set(task.id, task);
        return task;
      },
      async get(key: AuthenticatedKey, id: string) {
        const task = tasks.get(id);
        return task && task.owner === key.id ? task : undefined;
      },
      list: unusedServices.tasks.list,
      async cancel(key: AuthenticatedKey, id: string) {
        cancels.push(id);
        const task = tasks.get(id);
        if (!task || task.owner !== key.id) return undefined;
        const canceled: Task = {
          ...task,
          status: 'canceled',
          finishedAt: T0 + 2_000,
          updatedAt: T0 + 2_000,
          error: { code: 'canceled', message: 'canceled by the client' },
        };
        tasks.set(id, canceled);
        return canceled;
      },
      checkCallbackUrl(url, param) {
        if (!url.startsWith('https://'))
          throw new GatewayError('invalid_request', `${param} must be an http or https URL`, { param, code: 'invalid_callback_url' });
      },
      mediaUrl: (task, mediaId) => `${task.request.publicBaseUrl}/media/${mediaId}`,
      openResult: unusedServices.tasks.openResult,
      page: unusedServices.tasks.page,
      remove: unusedServices.tasks.remove,
    },
  };
  return {
    services,
    submits,
    cancels,
    fetched,
    tasks,
    fail,
    reset() {
      submits.length = 0;
      cancels.length = 0;
      fetched.length = 0;
      tasks.clear();
      fail.submit = undefined;
    },
  };
}

/**
 * The lookups a family answers with its one 404, each as [path, key] (undefined: the test key):
 * an unknown id, the family's own task asked for with another key, and the caller's task of the
 * `other` family, then `moreIds` asked with the test key. Puts those two tasks in the stub.
 */
export function unservedLookups(
  stub: VideoSurfaceStub,
  surface: TaskSurface,
  other: TaskSurface,
  path: (id: string) => string,
  ...moreIds: string[]
): Array<[string, string | undefined]> {
  stub.tasks.set('task_mine', videoTask(surface, 'task_mine', 'key-1'));
  stub.tasks.set('task_other', videoTask(other, 'task_other', 'key-1'));
  return [
    [path('task_none'), undefined],
    [path('task_mine'), OTHER_VIDEO_KEY],
    [path('task_other'), undefined],
    ...moreIds.map((id): [string, undefined] => [path(id), undefined]),
  ];
}

/** A finished task's result: the video first, a thumbnail after it. */
export const VIDEO_RESULT = {
  media: [
    { mediaId: 'v1.mp4', kind: 'video' as const, mime: 'video/mp4', bytes: 1000, seconds: 5 },
    { mediaId: 't1.jpg', kind: 'image' as const, mime: 'image/jpeg', bytes: 100 },
  ],
};

/** Serves one surface on 127.0.0.1 (port 0) with the gateway's JSON body parser; resolves its base URL and a closer. */
/** `alongside`: routes the gateway registers beside the surface (the download route). */
export async function serveSurface(
  surface: Surface,
  services: GatewayServices,
  alongside?: (app: FastifyInstance) => void,
): Promise<{ base: string; close: () => Promise<void> }> {
  // Closing ends connections still busy too: a test that reads only a download's headers leaves its body unread.
  const app = Fastify({ forceCloseConnections: true });
  installJsonBodyParser(app);
  await surface.register(app, services);
  alongside?.(app);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { base, close: () => app.close() };
}

/**
 * Serves `surface` on `services` for the tests of one describe block (started before them,
 * closed after); `base` is its base URL once started.
 */
export function servedDuringTests(surface: Surface, services: GatewayServices): { readonly base: string } {
  let served: { base: string; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    served = await serveSurface(surface, services);
  });
  afterAll(async () => {
    await served?.close();
  });
  return {
    get base(): string {
      return served?.base ?? '';
    },
  };
}

/**
 * Serves `surface` on the stub for the tests of one describe block (the stub reset before each),
 * with request helpers against it.
 */
export function surfaceUnderTest(surface: Surface, stub: VideoSurfaceStub) {
  const server = servedDuringTests(surface, stub.services);
  beforeEach(() => stub.reset());
  return { server, ...videoClient(() => server.base) };
}

/** JSON request helpers against `base()` with the test key (or the headers given). */
export function videoClient(base: () => string) {
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  return {
    post: (path: string, body?: unknown, headers: Record<string, string> = auth(VIDEO_KEY)) =>
      fetch(`${base()}${path}`, {
        method: 'POST',
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    get: (path: string, key = VIDEO_KEY) => fetch(`${base()}${path}`, { headers: auth(key) }),
    del: (path: string, key = VIDEO_KEY) => fetch(`${base()}${path}`, { method: 'DELETE', headers: auth(key) }),
  };
}
