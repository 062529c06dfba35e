/**
 * A task family as data: its paths, where its key comes from, its parsers, the names it gives
 * canonical fields, its renderers, its webhook and its error shape. `task-family-surface.ts`
 * turns one into a surface over the shared create / lookup / cancel routes
 * (`task-family-routes.ts`); what differs between families is only here, and what data cannot
 * say (imgtask's list by ids, its image seed) is the family's own `routes`, built on the same
 * pieces.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayError } from '../../core/errors.js';
import type { Task, TaskOperation, TaskRequest } from '../../core/task.js';
import type { GatewayServices, SurfaceName } from '../../gateway/contract.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';
import type { ParamNames } from './rename-canonical-param.js';

/** What a family's parser needs of the gateway: the image guards (reference images) and the callback URL check. */
type TaskParseServices = Pick<GatewayServices, 'fetchImage' | 'imageLimits' | 'tasks'>;

/** A create request in canonical form. */
export interface ParsedTaskCreate {
  /** The operation, when the route does not make it the family's one `operation`. */
  operation?: TaskOperation;
  request: TaskRequest;
  callback?: { url: string; state?: string };
  /** The task this one acts on (an image task's button). */
  parentId?: string;
  /** Where the client wrote each canonical field, when it depends on the request (else the family's table). */
  paramNames?: ParamNames;
}

/** `presentedKey`: the key the client authenticated with, for parsers that keep it out of what is relayed. */
export type TaskParser = (
  body: unknown,
  services: TaskParseServices,
  signal: AbortSignal,
  presentedKey: string | undefined,
) => ParsedTaskCreate | Promise<ParsedTaskCreate>;

/**
 * A task in the family's shape. `baseUrl`: the gateway base its links start with (undefined: the
 * one the task was created through, as webhooks show it); `mediaUrl`: a stored result file's URL.
 */
export type TaskRenderer = (task: Task, baseUrl: string | undefined, mediaUrl: (mediaId: string) => string) => unknown;

export interface TaskFamilyDefinition {
  name: SurfaceName;
  /** A new public task id, shaped like the family's own. */
  newId(): string;
  /** Prefixes every route of the family answers under, each in a scope of its own (none: the paths as written). */
  mounts?: readonly string[];
  /** The key the client presented (`Authorization: Bearer` unless given). */
  presentedKey?: (request: FastifyRequest) => string | undefined;
  /** Its create routes (`POST`): path → the parser of that route's body. */
  create: Readonly<Record<string, TaskParser>>;
  /** The operation of the tasks it creates, unless a parser names one. */
  operation?: TaskOperation;
  /** A provider's refusal names the canonical field; the client reads its own (none: names pass unchanged). */
  paramNames?: ParamNames;
  /** The creation answer (`status`: its HTTP status, 200 unless given). */
  accepted: { status?: number; render: TaskRenderer };
  /** The lookup route (`GET`); task paths name the id `:id`. */
  lookup: string;
  /** The cancel route, for families that cancel: a task not finished is canceled, the answer is the task as it now is. */
  cancel?: { method: 'POST' | 'DELETE'; path: string };
  /** The 404 of an id the family does not serve (unknown, another key's, another family's). */
  notFound(id: string): GatewayError;
  /** The task as lookups, cancels and the webhook show it. */
  render: TaskRenderer;
  /** When the webhook is sent: once the task finished (the default), or on every change. */
  webhook?: 'finished' | 'every change';
  /** Its error shape; `pathPrefixes`: where requests no route answered get it too (none: the fallback's). */
  errors: { render: ErrorRenderer; pathPrefixes?: readonly string[] };
  /** Routes data cannot say, registered in the family's scope after the shared ones. */
  routes?(app: FastifyInstance, services: GatewayServices, family: TaskFamilyDefinition): void;
}
