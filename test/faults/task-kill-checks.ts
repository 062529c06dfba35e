/**
 * What the task-engine fault tests share: a gateway's YAML for one MJ-proxy channel on the fake,
 * imgtask submits as a client sends them, waiting on the database, and the guarantees every
 * task must keep after a `kill -9` (one terminal status, one reserve and one settle-or-refund,
 * one usage row, one upstream submit at most, results served by the gateway itself).
 */
import { expect } from 'vitest';
import type { FakeMjProxy, FakeMjRecordedRequest } from '../fakes/fake-mj-proxy.js';
import { FAKE_MJ_SECRET } from '../fakes/fake-mj-proxy.js';
import { MASTER_KEY } from './gateway-process.js';
import { readTasks, type TasksState, type TaskSeen } from './read-tasks.js';

export const TERMINAL = ['succeeded', 'failed', 'canceled'];

export interface EngineYaml {
  fakeUrl: string;
  leaseMs: number;
  submitLeaseMs: number;
  pollIntervalMs: number;
  claimBatch?: number;
  mediaDir?: string;
  /** Sent on every upstream request as `x-gateway-process`, so the fake can tell processes apart. */
  processTag?: string;
}

export function mjGatewayYaml(options: EngineYaml): string {
  return [
    'channels:',
    '  - name: mj-fake',
    '    provider: midjourney-proxy',
    `    baseUrl: ${options.fakeUrl}`,
    `    apiKey: ${FAKE_MJ_SECRET}`,
    ...(options.processTag !== undefined ? [`    headers: { x-gateway-process: ${options.processTag} }`] : []),
    "    models: ['imgtask-*']",
    '    timeoutMs: 15000',
    `    options: { pollIntervalMs: ${options.pollIntervalMs} }`,
    'tasks:',
    `  leaseMs: ${options.leaseMs}`,
    `  submitLeaseMs: ${options.submitLeaseMs}`,
    ...(options.claimBatch !== undefined ? [`  claimBatch: ${options.claimBatch}`] : []),
    'media:',
    '  allowPrivateUrls: true',
    ...(options.mediaDir !== undefined ? [`  dir: ${options.mediaDir}`] : []),
    '',
  ].join('\n');
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

/** An imagine as an MJ-proxy client sends it; resolves the task id, or the error when the gateway died under it. */
export async function submitImagine(gatewayUrl: string, prompt: string): Promise<{ id?: string; error?: unknown }> {
  try {
    const response = await fetch(`${gatewayUrl}/mj/submit/imagine`, {
      method: 'POST',
      headers: { 'mj-api-secret': MASTER_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt }),
    });
    const json: Answer = await response.json();
    if (json.code !== 1) return { error: new Error(`submit answered ${response.status} ${JSON.stringify(json)}`) };
    return { id: String(json.result) };
  } catch (error) {
    return { error };
  }
}

export async function fetchRecord(gatewayUrl: string, id: string): Promise<Answer> {
  const response = await fetch(`${gatewayUrl}/mj/task/${id}/fetch`, { headers: { 'mj-api-secret': MASTER_KEY } });
  expect(response.status, `fetch ${id}`).toBe(200);
  return response.json();
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits until the database holds `count` tasks, every one terminal. */
export async function untilAllTerminal(databaseUrl: string, count: number, timeoutMs: number): Promise<TasksState> {
  let last: TasksState | undefined;
  try {
    return await until(
      `${count} terminal tasks`,
      async () => {
        last = await readTasks(databaseUrl);
        return last.tasks.length === count && last.tasks.every((task) => TERMINAL.includes(task.status)) ? last : undefined;
      },
      timeoutMs,
      150,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last?.tasks.map((t) => [t.prompt, t.status, t.lease_owner]))}`);
  }
}

/** The upstream id(s) a request to the fake is about: a fetch, a seed, a result image, or a batch query. */
export function upstreamIdsOf(request: FakeMjRecordedRequest): string[] {
  const task = /^\/mj\/task\/([^/]+)\/(fetch|image-seed)$/.exec(request.path) ?? /^\/attachments\/([^/]+)\.png$/.exec(request.path);
  if (task) return [decodeURIComponent(task[1])];
  if (request.path === '/mj/task/list-by-condition') return ((request.body as { ids?: string[] } | undefined)?.ids ?? []).map(String);
  return [];
}

export const isPoll = (request: FakeMjRecordedRequest) => request.path === '/mj/task/list-by-condition' || /^\/mj\/task\/[^/]+\/fetch$/.test(request.path);

/**
 * The guarantees after any kill: every task terminal; one reserve and exactly one settle (only
 * when it succeeded, with a stored result) or refund (otherwise), each of the task's price; one
 * usage row per task and nothing else billed; at most one upstream submit per task (the upstream
 * ids the gateway kept are distinct tasks of the fake).
 */
export function expectTaskGuarantees(state: TasksState, fake: FakeMjProxy): void {
  const { tasks, ledger, usage } = state;
  for (const task of tasks) {
    const where = `${task.prompt} (${task.id}, ${task.status}, ${task.error_code})`;
    expect(TERMINAL, where).toContain(task.status);
    const entries = ledger.filter((entry) => entry.task_id === task.id);
    const kinds = entries.map((entry) => entry.kind).sort();
    expect(kinds, where).toEqual(task.status === 'succeeded' ? ['reserve', 'settle'] : ['refund', 'reserve']);
    expect(task.price_nusd, where).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.amount_nusd, `${where} ${entry.kind}`).toBe(task.price_nusd);
    if (task.status === 'succeeded') expect(task.media.length, where).toBeGreaterThan(0);
    else expect(task.media, where).toEqual([]);
    const rows = usage.filter((row) => row.request_id === `task:${task.id}`);
    expect(rows, where).toHaveLength(1);
    expect(rows[0].outcome, where).toBe(task.status === 'succeeded' ? 'ok' : task.status);
    expect(rows[0].cost_nusd, where).toBe(task.status === 'succeeded' ? task.price_nusd : 0);
    expect(task.lease_owner, where).toBeNull();
  }
  // The submit calls' own rows (ended, or closed as interrupted by the kill) bill nothing: the task's price is its ledger's.
  for (const row of usage.filter((r) => !r.request_id.startsWith('task:'))) expect(row.cost_nusd, row.request_id).toBe(0);
  expect(ledger.every((entry) => tasks.some((task) => task.id === entry.task_id))).toBe(true);

  const submits = fake.submits();
  expect(submits.length, 'upstream submits').toBe(tasks.length);
  const prompts = submits.map((request) => (request.body as { prompt?: string }).prompt);
  for (const task of tasks)
    expect(
      prompts.filter((prompt) => prompt === task.prompt),
      `submits of ${task.prompt}`,
    ).toHaveLength(1);
  const kept = tasks.flatMap((task) => (task.upstream_id ? [task.upstream_id] : []));
  expect(new Set(kept).size).toBe(kept.length);
  for (const id of kept) expect(fake.tasks.has(id), id).toBe(true);
}

/** After the fake dropped every result, the gateway still serves each succeeded task's image from its own store. */
export async function expectResultsServedByGateway(gatewayUrl: string, tasks: TaskSeen[], fake: FakeMjProxy, sameOrigin: boolean): Promise<number> {
  fake.expireResults();
  let served = 0;
  for (const task of tasks.filter((t) => t.status === 'succeeded')) {
    const record = await fetchRecord(gatewayUrl, task.id);
    expect(record.status, task.prompt).toBe('SUCCESS');
    const gone = await fetch(`${fake.url}/attachments/${task.upstream_id}.png`);
    expect(gone.status).toBe(404);
    // The link carries the host the task was submitted through; a replacement answers on its path (as behind one load balancer).
    const link = new URL(record.imageUrl as string);
    expect(link.pathname).toMatch(/^\/media\//);
    if (sameOrigin) expect(link.origin).toBe(gatewayUrl);
    const image = await fetch(`${gatewayUrl}${link.pathname}`);
    expect(image.status, record.imageUrl).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    served++;
  }
  return served;
}
