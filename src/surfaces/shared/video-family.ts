/**
 * A video family as data: its paths, its parser, the names it gives canonical fields, its
 * renderers and its error shape. `video-family-surface.ts` turns one into a surface over the
 * shared create / lookup / cancel routes; what differs between families is only here.
 */
import type { Task, TaskRequest } from '../../core/task.js';
import type { GatewayServices, SurfaceName } from '../../gateway/contract.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';
import type { ParamNames } from './rename-canonical-param.js';

/** What a family's parser needs of the gateway: the image guards (reference images) and the callback URL check. */
type VideoParseServices = Pick<GatewayServices, 'fetchImage' | 'imageLimits' | 'tasks'>;

/** A create request in canonical form. */
export interface ParsedVideoCreate {
  request: TaskRequest;
  callback?: { url: string };
  /** Where the client wrote each canonical field, when it depends on the request (else the family's table). */
  paramNames?: ParamNames;
}

export type VideoParser = (body: unknown, services: VideoParseServices, signal: AbortSignal) => ParsedVideoCreate | Promise<ParsedVideoCreate>;

export interface VideoFamily {
  name: SurfaceName;
  /** A new public task id, shaped like the family's own. */
  newId(): string;
  /** Route paths; the task paths name the id `:id`. `cancel` is a `DELETE` route, for families that cancel. */
  paths: { create: string; lookup: string; cancel?: string };
  parse: VideoParser;
  /** A provider's refusal names the canonical field; the client reads its own. */
  paramNames: ParamNames;
  /** The creation answer (`status`: its HTTP status, 200 unless given). */
  accepted: { status?: number; render(task: Task, baseUrl: string): unknown };
  /** The task as lookups, cancels and the webhook show it; `baseUrl` defaults to the one it was created through. */
  render(task: Task, baseUrl?: string): unknown;
  /** Its error shape; `pathPrefixes`: where requests no route answered get it too (none: the fallback's). */
  errors: { render: ErrorRenderer; pathPrefixes?: readonly string[] };
}
