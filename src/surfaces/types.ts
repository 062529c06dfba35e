/**
 * A surface: one inbound dialect, registering its routes in its own encapsulated plugin. Each
 * `surfaces/<name>/index.ts` exports one, and `registry.ts` lists them all.
 */
import type { FastifyInstance } from 'fastify';
import type { TaskFamily } from '../core/task.js';
import type { GatewayServices, SurfaceName } from '../gateway/contract.js';
import type { ErrorRenderer } from '../http/error-renderer.js';

export interface Surface {
  name: SurfaceName;
  register(app: FastifyInstance, services: GatewayServices): Promise<void> | void;
  /**
   * Its error shape, for requests under its path prefixes that no route answered (unknown
   * routes, unparsable requests); absent: such requests get the fallback's (OpenAI's).
   */
  errors?: { pathPrefixes: readonly string[]; render: ErrorRenderer };
  /** A task family: its webhook bodies and the look of its task ids. */
  task?: TaskFamily;
}
