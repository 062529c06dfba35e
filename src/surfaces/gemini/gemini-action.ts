/** What a `POST …/models/{model}:{action}` handler receives once the key is authenticated. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedKey } from '../../core/key.js';
import type { GatewayServices } from '../../gateway/contract.js';

export interface GeminiActionContext {
  request: FastifyRequest;
  reply: FastifyReply;
  services: GatewayServices;
  key: AuthenticatedKey;
  /** The public model id from the path, without the action. */
  model: string;
}

export type GeminiActionHandler = (context: GeminiActionContext) => Promise<unknown>;
