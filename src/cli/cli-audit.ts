/** What a command of the CLI writes to the audit trail: the actor is the command line. */
import type { AuditRepository } from '../store/audit-repository.js';

export function cliAudit(log: AuditRepository) {
  return (action: string, target: string, details: Record<string, unknown>): Promise<void> =>
    log.append({ at: Date.now(), actor_kind: 'cli', actor_id: null, actor_label: 'command line', action, target, details: JSON.stringify(details), ip: null });
}
