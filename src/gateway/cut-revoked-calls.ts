/**
 * `limits.cutOnRevoke`: a key revoked, or its account disabled, stops being used at once — not
 * only for new requests. Whenever the key directory applies a change (made here, or by another
 * process and heard through the store's bus within a poll), the calls in flight of every key it
 * now refuses are cut with the reason (streams end with their dialect's error event, billed for
 * what was produced); a request authenticated before the change and admitted after it is refused.
 * Tasks an upstream already accepted are not calls in flight: they run to their end.
 */
import type { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { CallLifecycle } from './call-lifecycle.js';

/** What the key directory tells about keys authenticated earlier. */
interface Revocations {
  /** Runs `listener` after every change the directory applied; returns a function that removes it. */
  onChange(listener: () => void): () => void;
  /** Why the key may no longer be used; undefined while it may. */
  revocationOf(key: AuthenticatedKey): GatewayError | undefined;
}

/** Installs the cut for the lifecycle's life; `onCut` hears how many calls one change ended. */
export function cutRevokedCalls(lifecycle: CallLifecycle, revocations: Revocations, onCut?: (count: number) => void): void {
  const reasonFor = (key: AuthenticatedKey): GatewayError | undefined => (key.isMaster ? undefined : revocations.revocationOf(key));
  lifecycle.use({
    admit(call) {
      const reason = reasonFor(call.subject.key);
      if (reason) throw reason;
    },
  });
  revocations.onChange(() => {
    const count = lifecycle.cut((call) => reasonFor(call.subject.key));
    if (count > 0) onCut?.(count);
  });
}
