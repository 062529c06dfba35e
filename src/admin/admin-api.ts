/**
 * The admin API under `/admin/v1`: every route declares its JSON schema (the OpenAPI document
 * at `/admin/v1/openapi.json` is generated from them) and who may call it; the guard below
 * resolves the caller, enforces the access level and CSRF, and errors take one shape.
 */
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { answerableError } from '../http/answerable-error.js';
import { replyWithError } from '../http/edge-errors.js';
import type { AdminDeps } from './admin-deps.js';
import { refuseControlCharacters } from './refuse-control-characters.js';
import { renderAdminError } from './render-admin-error.js';
import { accountRoutes } from './routes/account-routes.js';
import { auditRoutes } from './routes/audit-routes.js';
import { budgetRoutes } from './routes/budget-routes.js';
import { channelRoutes } from './routes/channel-routes.js';
import { keyRoutes } from './routes/key-routes.js';
import { limitRoutes } from './routes/limit-routes.js';
import { limitStandingRoutes } from './routes/limit-standing-routes.js';
import { modelRoutes } from './routes/model-routes.js';
import { playgroundRoutes } from './routes/playground-routes.js';
import { responseRoutes } from './routes/response-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { taskRoutes } from './routes/task-routes.js';
import { usageRoutes } from './routes/usage-routes.js';

const ADMIN_PREFIX = '/admin/v1';
/** Admin requests are small JSON; nothing needs the surfaces' large body limit. */
const ADMIN_BODY_LIMIT = 256 * 1024;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteModule = (app: FastifyInstance, deps: AdminDeps) => void;

/** Every group of admin routes; a new group is one file in routes/ and one line here. */
const ROUTE_MODULES: RouteModule[] = [
  sessionRoutes,
  accountRoutes,
  auditRoutes,
  keyRoutes,
  limitStandingRoutes,
  limitRoutes,
  budgetRoutes,
  usageRoutes,
  channelRoutes,
  taskRoutes,
  responseRoutes,
  modelRoutes,
  playgroundRoutes,
];

export async function registerAdminApi(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  await app.register(
    async (scope) => {
      await scope.register(fastifyCookie);
      await scope.register(fastifySwagger, {
        openapi: {
          openapi: '3.1.0',
          info: {
            title: 'gengate admin API',
            version: '1',
            description:
              'Accounts, API keys, limits and budgets, channels, usage, tasks, stored responses, models and the audit log of a gengate gateway. ' +
              'Authenticate with the dashboard session cookie (state changes also need `x-csrf-token`) or `Authorization: Bearer <admin API key>`.',
          },
          servers: [{ url: '/' }],
          components: {
            securitySchemes: {
              session: { type: 'apiKey', in: 'cookie', name: 'gengate_session' },
              bearer: { type: 'http', scheme: 'bearer' },
            },
          },
          security: [{ session: [] }, { bearer: [] }],
        },
      });
      scope.addHook('onRoute', (route) => {
        if (route.config?.access === undefined) throw new Error(`admin route ${route.method} ${route.url} does not say who may call it`);
        route.bodyLimit ??= ADMIN_BODY_LIMIT;
        if (route.schema && !route.schema.hide) {
          const who = { public: 'anyone', 'signed-in': 'any signed-in account (members see their own data)', admin: 'admins only' }[route.config.access];
          route.schema = { ...route.schema, description: `${route.schema.description ? `${route.schema.description}\n\n` : ''}Access: ${who}.` };
        }
      });
      scope.setErrorHandler((error, request, reply) => {
        return replyWithError(request, reply, answerableError(error, request), renderAdminError);
      });
      scope.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const access = request.routeOptions.config.access;
        if (access === undefined) return;
        if (access === 'public') {
          // Signing in with a stale cookie must work; a public POST still has to come from our own pages.
          request.actor = await deps.auth.resolve(request).catch(() => undefined);
          if (UNSAFE_METHODS.has(request.method)) deps.auth.checkOrigin(request);
          return;
        }
        const actor = await deps.auth.resolve(request);
        if (actor) request.actor = actor;
        if (!actor) throw new GatewayError('authentication', 'Sign in, or send an admin API key as a Bearer token.', { code: 'unauthenticated' });
        if (access === 'admin' && actor.role !== 'admin') throw new GatewayError('permission', 'Only an admin may do this.', { code: 'forbidden' });
        if (UNSAFE_METHODS.has(request.method)) deps.auth.checkCsrf(request);
      });
      scope.addHook('preValidation', async (request) => refuseControlCharacters(request));
      for (const routes of ROUTE_MODULES) routes(scope, deps);
      scope.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => scope.swagger());
    },
    { prefix: ADMIN_PREFIX },
  );
}
