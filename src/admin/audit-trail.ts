/** Writes one audit entry per admin action, naming the actor and the address it came from. */
import type { FastifyRequest } from 'fastify';
import type { AuditRepository } from '../store/audit-repository.js';
import type { Actor } from './actor.js';

const MAX_DETAILS_CHARS = 4_096;

export class AuditTrail {
  constructor(private readonly repository: AuditRepository) {}

  /** `details` must hold no secret (no key, password or credential). */
  async record(request: FastifyRequest, action: string, target: string | null, details?: Record<string, unknown>): Promise<void> {
    await this.write(request.actor, request.ip, action, target, details);
  }

  async write(actor: Actor | undefined, ip: string | null, action: string, target: string | null, details?: Record<string, unknown>): Promise<void> {
    const text = details === undefined ? null : JSON.stringify(details);
    await this.repository.append({
      at: Date.now(),
      actor_kind: actor?.kind ?? 'system',
      actor_id: actor?.kind === 'key' ? (actor.keyId ?? null) : (actor?.accountId ?? null),
      actor_label: actor?.label ?? 'anonymous',
      action,
      target,
      details: text !== null && text.length > MAX_DETAILS_CHARS ? JSON.stringify({ truncated: text.slice(0, MAX_DETAILS_CHARS) }) : text,
      ip,
    });
  }

  list = (...args: Parameters<AuditRepository['list']>) => this.repository.list(...args);
}
