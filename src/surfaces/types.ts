/** A surface: one inbound dialect, registering its routes in its own encapsulated plugin. */
import type { FastifyInstance } from 'fastify';
import type { GatewayServices, SurfaceName } from '../gateway/contract.js';

export interface Surface {
  name: SurfaceName;
  register(app: FastifyInstance, services: GatewayServices): Promise<void> | void;
}
