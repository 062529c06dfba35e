/**
 * Issue 23, finding 13: database errors were echoed in 500s — a crafted admin cursor
 * (`[1.5,"x"]`, `1e308`), a NUL in a filter or an id, or a webhook receiver answering with a NUL
 * gave `500 internal error: invalid input syntax for type bigint …`. On SQLite and on PostgreSQL:
 * cursors and filters are checked against their columns' types (the client's 400 in the admin
 * shape), ids no row can have are simply not found, an unexpected error answers a generic
 * "internal error" naming the request id, and a receiver's answer is stored escaped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCharacterAt } from '../../src/core/client-strings.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

const MASTER_KEY = 'gg-finding-13-master-key-0123456789abcdef';
/** What a database says (PostgreSQL and SQLite): never in an answer. */
const DATABASE_TEXT = /syntax|bigint|byte sequence|UTF8|relation|no such table|SQLITE|violates|constraint/i;

const root = mkdtempSync(join(tmpdir(), 'gengate-finding-13-'));
const databases: TempDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(root, { recursive: true, force: true });
});

const BACKENDS = [
  { name: 'SQLite', url: async () => `sqlite:${join(mkdtempSync(join(root, 'sqlite-')), 'gengate.db')}` },
  {
    name: 'PostgreSQL',
    url: async () => {
      const database = await createTempDatabase();
      databases.push(database);
      return database.url;
    },
  },
];

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = { status: number; text: string; json: any };

const cursor = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

describe.each(BACKENDS)('finding 13: database errors never reach a client ($name)', (backend) => {
  let gw: RunningGateway;
  let receiver: Server;
  let receiverUrl: string;
  beforeAll(async () => {
    // A webhook receiver that refuses every delivery with a body no database column can hold as it is.
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(500, { 'content-type': 'text/plain' }).end('bad\u0000news\u001b[31m'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    gw = await startGateway({
      databaseUrl: await backend.url(),
      masterKey: MASTER_KEY,
      media: { allowPrivateUrls: true },
      sandbox: { taskMs: 50 },
      channels: [{ name: 'tasks', provider: 'sandbox', models: ['imgtask-*'] }],
    });
  });
  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function send(method: string, path: string, body?: unknown, key = MASTER_KEY): Promise<Answer> {
    const response = await fetch(`${gw.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json };
  }

  function expectAdminError(answer: Answer, status: number, code: string): void {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.json).toEqual({ error: { code, message: expect.any(String), requestId: expect.stringMatching(/^req_/) } });
    expect(answer.text).not.toMatch(DATABASE_TEXT);
    expect(controlCharacterAt(answer.text)).toBe(-1);
  }

  it('finding 13: crafted cursors on the admin listings are 400s in the admin shape', async () => {
    const crafted = ['[1.5,"x"]', '[1e308,"x"]', '1e308', '[-1,"x"]', '[1,"x\\u0000"]', `[1,"${'x'.repeat(135)}"]`, '[1.5,2]', '[1,1.5]', '[1e308,1]'];
    for (const path of ['/admin/v1/keys', '/admin/v1/tasks', '/admin/v1/audit', '/admin/v1/usage/records']) {
      for (const value of crafted) expectAdminError(await send('GET', `${path}?cursor=${cursor(value)}`), 400, 'invalid_cursor');
    }
    // A cursor the listing gave out still pages.
    for (let i = 0; i < 3; i++) expect((await send('POST', '/admin/v1/keys', { name: `key ${i}` })).status).toBe(201);
    const first = await send('GET', '/admin/v1/keys?limit=1');
    expect(first.json.nextCursor).toEqual(expect.any(String));
    expect((await send('GET', `/admin/v1/keys?limit=1&cursor=${first.json.nextCursor}`)).status).toBe(200);
  });

  it('finding 13: a NUL or another control character in an admin filter, id or field is a 400 naming it', async () => {
    const requests: Array<[string, string, unknown?, string?]> = [
      ['GET', '/admin/v1/keys?account=x%00', undefined, 'account'],
      ['GET', '/admin/v1/usage?groupBy=model&key=x%00', undefined, 'key'],
      ['GET', '/admin/v1/usage?groupBy=model&model=x%00', undefined, 'model'],
      ['GET', '/admin/v1/usage.csv?groupBy=day&channel=x%00', undefined, 'channel'],
      ['GET', '/admin/v1/tasks?key=x%00', undefined, 'key'],
      ['GET', '/admin/v1/audit?action=x%1b', undefined, 'action'],
      ['GET', '/admin/v1/tasks/x%00y', undefined, 'id'],
      ['DELETE', '/admin/v1/keys/x%00y', undefined, 'id'],
      ['PATCH', '/admin/v1/accounts/x%00y', { role: 'member' }, 'id'],
      ['POST', '/admin/v1/channels/x%00y/test', {}, 'name'],
      ['POST', '/admin/v1/keys', { name: 'evil\u0000name' }, 'name'],
      ['POST', '/admin/v1/keys', { name: 'red \u001b[31m' }, 'name'],
      ['POST', '/admin/v1/keys', { name: 'ok', models: ['gemini-\u0000*'] }, 'models[0]'],
      ['POST', '/admin/v1/accounts', { email: 'a\u0000@example.com', role: 'member' }, 'email'],
    ];
    for (const [method, path, body, field] of requests) {
      const answer = await send(method, path, body);
      expectAdminError(answer, 400, 'invalid_characters');
      expect(answer.json.error.message.startsWith(`${field} must not contain control characters`)).toBe(true);
    }
    // Signing in with a NUL in the e-mail: the same 400, not a 500.
    const signIn = await fetch(`${gw.url}/admin/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gw.url },
      body: JSON.stringify({ email: 'someone@example.com\u0000', password: 'not the password' }),
    });
    expect(signIn.status).toBe(400);
    expect(await signIn.text()).not.toMatch(DATABASE_TEXT);
  });

  it('finding 13: a task id no task can have is not found on the public routes', async () => {
    for (const [method, path, body] of [
      ['GET', '/imgtask/task/x%00y/fetch'],
      ['GET', '/mj/task/x%00y/image-seed'],
      ['POST', '/imgtask/task/x%00y/cancel', {}],
      ['POST', '/imgtask/submit/action', { taskId: '12\u000034', customId: 'MJ::JOB::upsample::1::x' }],
    ] as Array<[string, string, unknown?]>) {
      const answer = await send(method, path, body, gw.key);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404);
      expect(answer.json).toMatchObject({ code: 3, result: null });
      expect(answer.text).not.toMatch(DATABASE_TEXT);
    }
    const listed = await send('POST', '/imgtask/task/list-by-condition', { ids: ['x\u0000y'] }, gw.key);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([]);
  });

  it('finding 13: a webhook receiver answering with a NUL is stored escaped, and the delivery is retried', async () => {
    const submitted = await send('POST', '/imgtask/submit/imagine', { prompt: 'a lighthouse', notifyHook: receiverUrl }, gw.key);
    expect(submitted.status).toBe(200);
    const taskId = submitted.json.result as string;
    const deliveries = () => gw.gateway.store.db.selectFrom('webhook_deliveries').selectAll().where('task_id', '=', taskId).execute();
    const deadline = Date.now() + 20_000;
    let noted: Array<{ last_error: string | null; status: string }> = [];
    while (Date.now() < deadline) {
      noted = (await deliveries()).filter((row) => row.last_error !== null);
      if (noted.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(noted.length).toBeGreaterThan(0);
    const [row] = noted;
    expect(row.status).toBe('pending');
    expect(row.last_error).toContain('the receiver answered HTTP 500: bad\\u0000news\\u001b[31m');
    expect(controlCharacterAt(row.last_error ?? '')).toBe(-1);
  }, 30_000);

  it('finding 13: an unexpected database error answers a generic internal error with the request id', async () => {
    // Last in this file: the gateway loses a table it reads.
    await sql`DROP TABLE audit_log`.execute(gw.gateway.store.db);
    const answer = await send('GET', '/admin/v1/audit');
    expectAdminError(answer, 500, 'internal_error');
    expect(answer.json.error.message).toBe(`internal error (request id ${answer.json.error.requestId}); the details are in the gateway's log`);
    expect(answer.text).not.toContain('audit_log');
  });
});
