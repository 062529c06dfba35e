/**
 * Connects admission (`limits/limits-service.ts`) to the call lifecycle: the `admit` hook takes
 * a call's holds (or throws its refusal), the `end` hook settles them to what the call used or
 * releases them when no upstream answered, and a heartbeat renews the holds of the calls in
 * flight on this process every third of the lease, so a long stream keeps them and a killed
 * process's holds expire. A task submit's holds belong to the task and end with it, not here.
 * While no rule exists the admit hook returns at once, without allocating.
 */
import type { Logger } from 'pino';
import type { Admission, LimitsService } from '../limits/limits-service.js';
import type { Call, LifecycleHooks } from './call-lifecycle.js';

export interface LimitsHooks extends LifecycleHooks {
  /** Stops the heartbeat (at shutdown). */
  stop(): void;
}

export function limitsHooks(limits: LimitsService, logger?: Pick<Logger, 'warn'>): LimitsHooks {
  const running = new Map<Call, Admission>();
  let heartbeat: NodeJS.Timeout | undefined;
  const warn = (error: unknown, message: string) => logger?.warn({ err: error }, message);

  const beat = () => {
    if (running.size === 0) return;
    // A task's holds live until its deadline: only calls are renewed.
    const ids: string[] = [];
    for (const [call, admission] of running) if (!call.subject.taskReservation) ids.push(admission.reservationId);
    limits.renew(ids).catch((error: unknown) => warn(error, 'limits: renewing the holds of calls in flight failed'));
  };

  return {
    admit(call) {
      if (!limits.active) return;
      return admitCall(call);
    },
    end(call, ending) {
      const admission = running.get(call);
      if (!admission) return;
      running.delete(call);
      const release = ending.usage === undefined && ending.outcome !== 'ok';
      // A submitted task keeps its holds; one whose submit failed is refunded (the finisher releases it too: idempotent).
      if (call.subject.taskReservation && !release) return;
      limits
        .end(admission, { usage: ending.usage, costNusd: ending.costNusd, release })
        .catch((error: unknown) => warn(error, 'limits: ending the holds of a call failed (they expire with their lease)'));
    },
    stop() {
      clearInterval(heartbeat);
      heartbeat = undefined;
    },
  };

  async function admitCall(call: Call): Promise<void> {
    const { subject } = call;
    const admission = await limits.admit({
      requestId: subject.requestId,
      keyId: subject.key.id,
      accountId: subject.key.accountId,
      model: subject.model,
      estimate: subject.estimate,
      task: subject.taskReservation,
    });
    if (!admission) return;
    running.set(call, admission);
    if (!heartbeat) {
      heartbeat = setInterval(beat, Math.max(1_000, Math.floor(limits.leaseMs / 3)));
      heartbeat.unref();
    }
  }
}
