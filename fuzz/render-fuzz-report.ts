/** The fuzz run's summary, as printed and as pasted into docs/robustness.md. */
import { type FuzzReport, LIMITS } from './run-fuzz.js';

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

export function renderFuzzReport(report: FuzzReport): string {
  const lines = [
    `seed ${report.seed} on ${report.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${report.sent} requests sent of ${report.requested}${report.completed ? '' : ' (stopped by the time bound)'}, ${report.rawCases} raw-socket cases, ${(report.durationMs / 1000).toFixed(1)} s${report.refusedByClient ? `, ${report.refusedByClient} refused by the HTTP client before sending` : ''}`,
    `by attack: ${Object.entries(report.byAttack)
      .map(([attack, count]) => `${attack} ${count}`)
      .join(', ')}`,
    `by status: ${Object.entries(report.byStatus)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')}`,
    `event loop (/healthz round trips beside the load): ${report.probe.count} probes, p50 ${report.probe.p50.toFixed(1)} ms, p99 ${report.probe.p99.toFixed(1)} ms, max ${report.probe.max.toFixed(1)} ms, ${report.probe.over} over ${LIMITS.stallMs} ms${report.probe.errors ? `, ${report.probe.errors} failed` : ''}`,
    `memory: idle ${mb(report.idleRss)}, peak ${mb(report.peakRss)} (+${mb(report.peakRss - report.idleRss)}; limit +${mb(LIMITS.rssAboveIdleBytes)})`,
    report.crashed ? 'the gateway CRASHED' : 'the gateway stayed up',
    `wildcard channel: ${report.upstreamRequests} upstream requests, each path checked`,
    `after the run: ${report.afterRun.join('; ') || 'not checked'}`,
  ];
  if (report.groups.length === 0) lines.push('no findings');
  else {
    lines.push(`${report.groups.length} kinds of finding:`);
    for (const group of report.groups) {
      lines.push(`- [${group.kind}] ×${group.count}: ${group.symptom}`);
      lines.push(`    e.g. ${group.example}`);
      if (group.caseIndex !== undefined) lines.push(`    replay: npm run fuzz -- --seed ${report.seed} --only ${group.caseIndex}${report.replayFlags}`);
    }
  }
  return lines.join('\n');
}
