/** A channel's health in one table cell: circuit state, last probe, upstream error rate over 5 minutes (this replica's view). */
import { formatDateTime, formatMs } from '../lib/format.js';
import type { ChannelHealth } from '../types.js';

interface Props {
  circuit: 'closed' | 'open' | 'half-open';
  autoDisabled: boolean;
  health: ChannelHealth | undefined;
}

function probeText(health: ChannelHealth | undefined): string {
  if (!health?.probe?.enabled) return 'Probes off';
  const last = health.recentProbes[0];
  if (!last) return 'Not probed yet';
  if (last.ok) return `Probe OK · ${formatMs(last.latencyMs)}`;
  return `Probe failed${last.status !== undefined ? ` · HTTP ${last.status}` : ''}${last.errorType ? ` · ${last.errorType}` : ''}`;
}

function errorText(health: ChannelHealth | undefined): string {
  if (!health || health.calls5m === 0) return 'No calls in 5 min';
  const percent = Math.round((health.errorRate5m ?? 0) * 1000) / 10;
  return `${percent}% errors of ${health.calls5m} call${health.calls5m === 1 ? '' : 's'} (5 min)`;
}

export function ChannelHealthCell(props: Props) {
  const { health } = props;
  const circuit = health?.breaker ?? props.circuit;
  const last = health?.recentProbes[0];
  return (
    <div class="health-cell">
      <span class={`badge circuit-${circuit}`}>{circuit}</span>
      {props.autoDisabled && (
        <span class="badge circuit-open" title="Disabled by the gateway after its credentials were refused; a passing probe re-enables it">
          auto-disabled
        </span>
      )}
      <span class="muted" title={last ? `${formatDateTime(last.at)}${last.message ? ` — ${last.message}` : ''}` : undefined}>
        {probeText(health)}
      </span>
      <span class="muted">{errorText(health)}</span>
    </div>
  );
}
