/**
 * Loaded into a measured server with `--import` (compare-versions --gc): counts its garbage
 * collections by kind and how much the old generation grew between them, and writes the running
 * totals to `gc-stats.json` in the process's working directory on SIGUSR2.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const totals = { young: 0, full: 0, youngMs: 0, fullMs: 0, oldGrowthBytes: 0 };
const oldGeneration = () => {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (space.space_name !== 'new_space') used += space.space_used_size;
  return used;
};
let lastOld = oldGeneration();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      totals.young++;
      totals.youngMs += entry.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      totals.full++;
      totals.fullMs += entry.duration;
    }
  }
  // What the old generation gained since the last look: promoted and pretenured objects alike.
  const now = oldGeneration();
  if (now > lastOld) totals.oldGrowthBytes += now - lastOld;
  lastOld = now;
}).observe({ entryTypes: ['gc'] });

// Written whole, then renamed: the reader never sees half a file.
process.on('SIGUSR2', () => {
  writeFileSync('gc-stats.json.tmp', JSON.stringify(totals));
  renameSync('gc-stats.json.tmp', 'gc-stats.json');
});
