/**
 * A fake Google Vertex AI endpoint and OAuth token endpoint on one `node:http` server, following
 * Google's published wire formats:
 * - `POST /token`: the JWT bearer grant (RFC 7523). The assertion's RS256 signature is verified
 *   against the service account's public key, and its claims checked as Google does (`iss` the
 *   account, `aud` this token URI, the cloud-platform `scope`, at most an hour long, not expired).
 * - `POST /v1/projects/<p>/locations/<l>/publishers/google/models/<m>:generateContent` (and
 *   `:streamGenerateContent?alt=sse`): Gemini on Vertex. Vertex names the model in the path and
 *   refuses unknown body members (`model`) with its 400; the checked body is relayed to the Gemini
 *   API fake, whose answer (the same wire format) comes back as it is.
 * - `…/publishers/anthropic/models/<m>:rawPredict` and `:streamRawPredict`: Claude on Vertex, the
 *   Messages body with `anthropic_version: vertex-2023-10-16` and no `model`; relayed to the
 *   Anthropic fake with the model from the path.
 * - `…/publishers/google/models/<m>:predict`: text embeddings (`instances[].content`), answered here.
 * Every Vertex call needs `Authorization: Bearer` with a token this fake issued, and a project and
 * location the fake serves.
 */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_ANTHROPIC_KEY } from './fake-anthropic-upstream.js';
import { FAKE_GEMINI_KEY } from './fake-gemini-upstream.js';
import { closeServer, readBody, sendJson } from './fake-http.js';

export const VERTEX_PROJECT = 'gengate-test-project';
export const VERTEX_LOCATIONS = new Set(['global', 'us-east5', 'europe-west4']);
export const SERVICE_ACCOUNT_EMAIL = 'gateway@gengate-test-project.iam.gserviceaccount.com';

export interface VertexCall {
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeVertexAI {
  url: string;
  /** A service-account key file (JSON text) whose key this fake trusts and whose `token_uri` is this fake. */
  keyFile: string;
  /** A key file this fake does not trust (same account, another key). */
  untrustedKeyFile: string;
  calls: VertexCall[];
  tokensIssued: number;
  close(): Promise<void>;
}

function googleError(res: ServerResponse, status: number, message: string, state: string): void {
  sendJson(res, status, { error: { code: status, message, status: state } });
}

function keyFile(privateKey: string, tokenUri: string, keyId: string): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: VERTEX_PROJECT,
    private_key_id: keyId,
    private_key: privateKey,
    client_email: SERVICE_ACCOUNT_EMAIL,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  });
}

export async function startFakeVertexAI(relays: { gemini: string; anthropic: string }): Promise<FakeVertexAI> {
  const trusted = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { publicKey } = trusted;
  const calls: VertexCall[] = [];
  const tokens = new Set<string>();
  const state = { tokensIssued: 0, url: '' };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) googleError(res, 500, String(error), 'INTERNAL');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path, query = ''] = (req.url ?? '/').split('?');
    const text = await readBody(req);
    if (req.method === 'POST' && path === '/token') return issueToken(text, res);
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    calls.push({ path, query, headers: req.headers, body });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !tokens.has(bearer)) {
      return googleError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.', 'UNAUTHENTICATED');
    }
    const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(path);
    if (!match) return googleError(res, 404, `The requested URL ${path} was not found on this server.`, 'NOT_FOUND');
    const [, project, location, publisher, rawModel, method] = match;
    if (project !== VERTEX_PROJECT) return googleError(res, 403, `Permission denied on resource project ${project}.`, 'PERMISSION_DENIED');
    if (!VERTEX_LOCATIONS.has(location)) return googleError(res, 400, `Unsupported location ${location}.`, 'INVALID_ARGUMENT');
    if (!body) return googleError(res, 400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
    const model = decodeURIComponent(rawModel);
    if (publisher === 'google') {
      if (method === 'predict') return predict(body, res);
      if (method !== 'generateContent' && method !== 'streamGenerateContent') return googleError(res, 404, `Method ${method} not found.`, 'NOT_FOUND');
      if ('model' in body) return googleError(res, 400, 'Invalid JSON payload received. Unknown name "model": Cannot find field.', 'INVALID_ARGUMENT');
      const suffix = method === 'streamGenerateContent' ? `?${query}` : '';
      return relay(`${relays.gemini}/v1beta/models/${encodeURIComponent(model)}:${method}${suffix}`, { 'x-goog-api-key': FAKE_GEMINI_KEY }, body, res);
    }
    if (method !== 'rawPredict' && method !== 'streamRawPredict') return googleError(res, 404, `Method ${method} not found.`, 'NOT_FOUND');
    if (body.anthropic_version !== 'vertex-2023-10-16') {
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: Input should be vertex-2023-10-16' } });
    }
    if ('model' in body)
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' } });
    const { anthropic_version: _version, ...messages } = body;
    const headers: Record<string, string> = { 'x-api-key': FAKE_ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' };
    const beta = req.headers['anthropic-beta'];
    if (typeof beta === 'string') headers['anthropic-beta'] = beta;
    return relay(`${relays.anthropic}/v1/messages`, headers, { ...messages, model: model.replace(/@.*$/, '') }, res);
  }

  async function relay(url: string, headers: Record<string, string>, body: object, res: ServerResponse): Promise<void> {
    const upstream = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    if (upstream.body) for await (const chunk of upstream.body) res.write(chunk);
    res.end();
  }

  function predict(body: Record<string, unknown>, res: ServerResponse): void {
    const instances = Array.isArray(body.instances) ? (body.instances as Array<{ content?: unknown }>) : [];
    if (instances.length === 0 || instances.length > 250 || instances.some((instance) => typeof instance?.content !== 'string')) {
      return googleError(res, 400, 'instances must hold 1 to 250 objects with a string content.', 'INVALID_ARGUMENT');
    }
    const dimensions = Number((body.parameters as { outputDimensionality?: unknown } | undefined)?.outputDimensionality ?? 8);
    const predictions = instances.map((instance) => {
      const content = instance.content as string;
      const words = content.split(/\s+/).filter(Boolean).length;
      const values = Array.from({ length: dimensions }, (_, i) => ((content.length + i) % 7) / 7);
      return { embeddings: { values, statistics: { token_count: words, truncated: false } } };
    });
    sendJson(res, 200, { predictions, metadata: { billableCharacterCount: 1 } });
  }

  function issueToken(text: string, res: ServerResponse): void {
    const form = new URLSearchParams(text);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    }
    const assertion = form.get('assertion') ?? '';
    const [header64, claims64, signature64] = assertion.split('.');
    const verifier = createVerify('RSA-SHA256').update(`${header64}.${claims64}`);
    if (!signature64 || !verifier.verify(publicKey, Buffer.from(signature64, 'base64url'))) {
      return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const header = JSON.parse(Buffer.from(header64, 'base64url').toString()) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(claims64, 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    const good =
      header.alg === 'RS256' &&
      claims.iss === SERVICE_ACCOUNT_EMAIL &&
      claims.aud === `${state.url}/token` &&
      claims.scope === 'https://www.googleapis.com/auth/cloud-platform' &&
      exp > now &&
      exp - iat <= 3600 &&
      iat <= now + 60;
    if (!good) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT: claims are not valid.' });
    state.tokensIssued++;
    const token = `ya29.fake-${state.tokensIssued}`;
    tokens.add(token);
    sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  const pem = (key: typeof trusted.privateKey) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    url: state.url,
    keyFile: keyFile(pem(trusted.privateKey), `${state.url}/token`, 'key-trusted'),
    untrustedKeyFile: keyFile(pem(other.privateKey), `${state.url}/token`, 'key-other'),
    calls,
    get tokensIssued() {
      return state.tokensIssued;
    },
    close: () => closeServer(server),
  };
}
