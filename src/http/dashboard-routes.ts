/**
 * The web dashboard at `/dashboard`: the files `scripts/build-dashboard.mjs` wrote into
 * dist/dashboard/, read once at registration and served from memory. Only the names found then
 * are served (no path from the request reaches the file system). Every other path under
 * `/dashboard/` is a client-side route and gets index.html. Without a build, 503 says how to
 * make one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

interface DashboardOptions {
  /** The built dashboard: index.html and assets/. */
  dir: string;
}

interface StaticFile {
  body: Buffer;
  type: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** No inline script or style; media may come from upstream links (task previews). */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Bounds what is held in memory: the build is well under a megabyte. */
const MAX_ASSETS = 200;
const MAX_TOTAL_BYTES = 20 * 1024 * 1024;

function loadBuild(dir: string): { index: Buffer; assets: Map<string, StaticFile> } | undefined {
  let index: Buffer;
  try {
    index = readFileSync(join(dir, 'index.html'));
  } catch {
    return undefined;
  }
  const assets = new Map<string, StaticFile>();
  let total = index.length;
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, 'assets'));
  } catch {
    // A build without assets serves index.html alone.
  }
  for (const name of names.slice(0, MAX_ASSETS)) {
    const path = join(dir, 'assets', name);
    if (!statSync(path).isFile()) continue;
    const body = readFileSync(path);
    total += body.length;
    if (total > MAX_TOTAL_BYTES) throw new Error(`the dashboard build in ${dir} is larger than ${MAX_TOTAL_BYTES} bytes`);
    assets.set(name, { body, type: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream' });
  }
  return { index, assets };
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

export function registerDashboardRoutes(app: FastifyInstance, options: DashboardOptions): void {
  const build = loadBuild(options.dir);

  const sendIndex = async (_request: unknown, reply: FastifyReply) => {
    securityHeaders(reply);
    if (!build) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. Run `npm run build` (or `npm install`) and restart the gateway.\n');
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(build.index);
  };

  app.get('/dashboard', sendIndex);
  app.get('/dashboard/*', sendIndex);
  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    securityHeaders(reply);
    const file = build?.assets.get(request.params.file);
    if (!file) {
      const status = build ? 404 : 503;
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(build ? 'No such dashboard file.\n' : 'The dashboard is not built. Run `npm run build`.\n');
    }
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(file.type).send(file.body);
  });
}
