/**
 * A fake Azure OpenAI resource and Microsoft Entra token endpoint, on one `node:http` server,
 * following Azure's published layout: the v1 API (`/openai/v1/<path>`, the deployment named as
 * `model`) and the deployments API (`/openai/deployments/<deployment>/<path>?api-version=…`,
 * where the deployment, not the body, picks the model; Responses at `/openai/responses?api-version=…`).
 * Authentication as Azure checks it: the `api-key` header, or `Authorization: Bearer` with a token
 * this fake's Entra endpoint issued (`POST /<tenant>/oauth2/v2.0/token`, client-credentials grant,
 * scope `https://cognitiveservices.azure.com/.default`). Azure answers with the OpenAI wire
 * format, so the request, once checked, is relayed to the OpenAI fakes (chat and embeddings, and
 * Responses) under their own paths, and their answers are returned as they are.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, sendJson } from './fake-http.js';

export const AZURE_API_KEY = 'azure-fake-key-0123456789abcdef';
export const ENTRA_TENANT = 'tenant-1111';
export const ENTRA_CLIENT_ID = 'client-2222';
export const ENTRA_CLIENT_SECRET = 'secret-3333';
/** The resource's deployments: name → the model deployed (what the relayed OpenAI fakes know). */
export const AZURE_DEPLOYMENTS: Readonly<Record<string, string>> = { 'prod-gpt4o': 'gpt-4o', 'embed-small': 'text-embedding-3-small' };
/** The api-version values this fake knows (Azure answers 404 for an unknown one). */
const API_VERSIONS = new Set(['2024-10-21', '2025-04-01-preview']);

export interface AzureRequest {
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeAzureOpenAI {
  /** The resource URL, as a channel's baseUrl (`https://<resource>.openai.azure.com`). */
  url: string;
  /** The Entra authority host (a channel's `authorityHost` option). */
  authorityHost: string;
  requests: AzureRequest[];
  tokensIssued: number;
  close(): Promise<void>;
}

interface Relays {
  /** Base URL (with `/v1`) of an OpenAI chat + embeddings fake that accepts any key. */
  openai: string;
  /** Base URL (with `/v1`) of the OpenAI Responses fake, and the key it wants. */
  responses?: { url: string; key: string };
}

export async function startFakeAzureOpenAI(relays: Relays): Promise<FakeAzureOpenAI> {
  const requests: AzureRequest[] = [];
  const tokens = new Set<string>();
  const state = { tokensIssued: 0 };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'InternalServerError', message: String(error) } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path, query = ''] = (req.url ?? '/').split('?');
    const text = await readBody(req);
    if (req.method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/token$/.test(path)) return issueToken(path, text, res);
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ path, query, headers: req.headers, body });
    if (!authorized(req)) {
      // Azure's answer to a wrong key (a missing or unknown bearer token is also a 401).
      return sendJson(res, 401, {
        error: {
          code: '401',
          message:
            'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        },
      });
    }
    const target = route(path, new URLSearchParams(query), body);
    if ('error' in target) return sendJson(res, target.status, { error: { code: target.code, message: target.error } });
    const upstream = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}` },
      body: JSON.stringify(target.body),
    });
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      'apim-request-id': `apim-${requests.length}`,
    });
    if (upstream.body) for await (const chunk of upstream.body) res.write(chunk);
    res.end();
  }

  function authorized(req: IncomingMessage): boolean {
    if (req.headers['api-key'] !== undefined) return req.headers['api-key'] === AZURE_API_KEY;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return bearer !== undefined && tokens.has(bearer);
  }

  type Target = { url: string; key: string; body: Record<string, unknown> } | { error: string; code: string; status: number };

  function route(path: string, query: URLSearchParams, body: Record<string, unknown> | undefined): Target {
    if (!body) return { error: 'The request body is not valid JSON.', code: 'BadRequest', status: 400 };
    const v1 = /^\/openai\/v1(\/chat\/completions|\/embeddings|\/responses)$/.exec(path);
    if (v1) return deployed(v1[1], String(body.model), body);
    const version = query.get('api-version');
    if (version === null || !API_VERSIONS.has(version)) {
      return { error: 'Resource not found', code: '404', status: 404 };
    }
    if (path === '/openai/responses') return deployed('/responses', String(body.model), body);
    const deployment = /^\/openai\/deployments\/([^/]+)(\/chat\/completions|\/embeddings)$/.exec(path);
    if (!deployment) return { error: 'Resource not found', code: '404', status: 404 };
    // The deployment in the path decides the model, whatever the body says.
    return deployed(deployment[2], decodeURIComponent(deployment[1]), body);
  }

  function deployed(path: string, deployment: string, body: Record<string, unknown>): Target {
    const model = AZURE_DEPLOYMENTS[deployment];
    if (model === undefined) {
      return {
        error:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
        code: 'DeploymentNotFound',
        status: 404,
      };
    }
    return relay(path, { ...body, model });
  }

  function relay(path: string, body: Record<string, unknown>): Target {
    if (path === '/responses') {
      if (!relays.responses) return { error: 'Resource not found', code: '404', status: 404 };
      return { url: `${relays.responses.url}/responses`, key: relays.responses.key, body };
    }
    return { url: `${relays.openai}${path}`, key: 'any', body };
  }

  function issueToken(path: string, text: string, res: ServerResponse): void {
    const form = new URLSearchParams(text);
    const tenant = path.split('/')[1];
    const good =
      tenant === ENTRA_TENANT &&
      form.get('grant_type') === 'client_credentials' &&
      form.get('client_id') === ENTRA_CLIENT_ID &&
      form.get('scope') === 'https://cognitiveservices.azure.com/.default';
    if (!good)
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'AADSTS900144: The request body must contain the expected parameters.' });
    if (form.get('client_secret') !== ENTRA_CLIENT_SECRET) {
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    state.tokensIssued++;
    const token = `entra-token-${state.tokensIssued}`;
    tokens.add(token);
    sendJson(res, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    authorityHost: url,
    requests,
    get tokensIssued() {
      return state.tokensIssued;
    },
    close: () => closeServer(server),
  };
}
