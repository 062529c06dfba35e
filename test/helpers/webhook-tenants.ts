/**
 * Two tenants and their webhook receivers, for the tests of webhook fairness (finding 3 of issue
 * 23): accounts and keys made through the admin API with the master key, imgtask imagines with a
 * `notifyHook`, a receiver that accepts and never answers, and one that answers at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Tenant {
  accountId: string;
  keyId: string;
  key: string;
}

export interface Receiver {
  url: string;
  /** Requests received so far. */
  received: Array<{ at: number; body: string }>;
  /** Requests received and not answered yet (a hanging receiver's connections held open). */
  open(): number;
  /** The most requests open at once so far. */
  mostOpen(): number;
  close(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

async function adminCall(gatewayUrl: string, masterKey: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${gatewayUrl}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A member account and one key of it. */
export async function createTenant(gatewayUrl: string, masterKey: string, email: string): Promise<Tenant> {
  const { account } = await adminCall(gatewayUrl, masterKey, '/accounts', { email, role: 'member' });
  const { key, secret } = await adminCall(gatewayUrl, masterKey, '/keys', { name: `${email} key`, accountId: account.id });
  return { accountId: account.id, keyId: key.id, key: secret };
}

/** Submits an imgtask imagine whose record is delivered to `notifyHook`; returns the task id. */
export async function submitImagine(gatewayUrl: string, key: string, prompt: string, notifyHook: string): Promise<string> {
  const response = await fetch(`${gatewayUrl}/imgtask/submit/imagine`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt, notifyHook }),
  });
  const json: Answer = await response.json();
  if (response.status !== 200 || json.code !== 1) throw new Error(`imagine: ${response.status} ${JSON.stringify(json)}`);
  return json.result;
}

/** Polls the task until it ends; answers its record. */
export async function untilTaskEnds(gatewayUrl: string, key: string, id: string, timeoutMs = 20_000): Promise<Answer> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const response = await fetch(`${gatewayUrl}/imgtask/task/${id}/fetch`, { headers: { authorization: `Bearer ${key}` } });
    const record: Answer = await response.json();
    if (record.status === 'SUCCESS' || record.status === 'FAILURE') return record;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`task ${id} did not end within ${timeoutMs} ms`);
}

async function startReceiver(answer: boolean): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const waiting = new Set<ServerResponse>();
  let mostOpen = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
      if (answer) return void response.end('ok');
      waiting.add(response);
      mostOpen = Math.max(mostOpen, waiting.size);
      response.on('close', () => waiting.delete(response));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    open: () => waiting.size,
    mostOpen: () => mostOpen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Accepts each delivery's connection and request, and never answers (until closed). */
export function startHangingReceiver(): Promise<Receiver> {
  return startReceiver(false);
}

/** Answers every delivery 200 at once, noting when it arrived. */
export function startPromptReceiver(): Promise<Receiver> {
  return startReceiver(true);
}

/** Waits until `check` holds, polling; throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
