/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) and tells where the time went:
 * the top functions by self time, and self time grouped by package or source folder.
 */
import type { ProfileEntry, ProfileSummary } from './bench-types.js';

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }>;
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const IDLE = '(idle)';

/** Where a script lives, shortened: `src/…` or `dist/…` of the repo, `pkg/file` in node_modules, `node:…`. */
export function shortLocation(url: string, repoRoot: string): string {
  if (!url) return '';
  let path = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  const root = repoRoot.endsWith('/') ? repoRoot : `${repoRoot}/`;
  if (path.startsWith(root)) path = path.slice(root.length);
  return path;
}

/** The group a location counts towards: a package, a gengate folder, a node core area, or V8. */
export function areaOf(location: string): string {
  if (!location) return 'V8 / native';
  if (location.startsWith('node:')) {
    const parts = location.slice(5).split('/');
    return parts[0] === 'internal' && parts.length > 2 ? `node:internal/${parts[1]}` : `node:${parts.slice(0, 2).join('/')}`;
  }
  const parts = location.split('/');
  if (parts[0] === 'src' || parts[0] === 'dist') return parts.slice(0, Math.min(3, parts.length - 1)).join('/') || parts[0];
  if (parts[0].startsWith('@') && parts.length > 1) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 ? parts[0] : location;
}

export interface SummaryOptions {
  repoRoot: string;
  scenario: string;
  top?: number;
  /**
   * Only samples taken inside this window count (microseconds of the monotonic clock that
   * both V8's profiler and `process.hrtime` read on Linux), e.g. to leave start-up out.
   */
  window?: { startUs: number; endUs: number };
}

/** Sample counts per profile node, limited to the window when one is given. */
function countSamples(profile: CpuProfile, window: SummaryOptions['window']): Map<number, number> {
  const hits = new Map<number, number>();
  if (profile.samples && profile.samples.length > 0) {
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at += profile.timeDeltas?.[i] ?? 0;
      if (window && (at < window.startUs || at > window.endUs)) continue;
      const id = profile.samples[i];
      hits.set(id, (hits.get(id) ?? 0) + 1);
    }
  } else {
    for (const node of profile.nodes) if (node.hitCount) hits.set(node.id, node.hitCount);
  }
  return hits;
}

function isGengateCode(location: string): boolean {
  return location.startsWith('src/') || location.startsWith('dist/');
}

export function summarizeCpuProfile(profile: CpuProfile, options: SummaryOptions): ProfileSummary {
  const hits = countSamples(profile, options.window);
  let totalSamples = 0;
  for (const count of hits.values()) totalSamples += count;
  const spanUs =
    options.window && profile.samples?.length
      ? Math.min(options.window.endUs, profile.endTime) - Math.max(options.window.startUs, profile.startTime)
      : profile.endTime - profile.startTime;
  const msPerSample = totalSamples > 0 ? spanUs / 1000 / totalSamples : 0;

  const parentOf = new Map<number, number>();
  const nodeById = new Map<number, CpuProfile['nodes'][number]>();
  for (const node of profile.nodes) {
    nodeById.set(node.id, node);
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const describe = (node: CpuProfile['nodes'][number]) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const location = shortLocation(url, options.repoRoot);
    return { name: functionName || '(anonymous)', location, where: location ? `${location}:${lineNumber + 1}` : '' };
  };

  const byFunction = new Map<string, ProfileEntry>();
  const inclusive = new Map<string, ProfileEntry>();
  const byArea = new Map<string, number>();
  let busyMs = 0;
  for (const [id, count] of hits) {
    const node = nodeById.get(id);
    if (!node || node.callFrame.functionName === IDLE) continue;
    const ms = count * msPerSample;
    busyMs += ms;
    const { name, location, where } = describe(node);
    const key = `${name}\u0000${where}`;
    const entry = byFunction.get(key) ?? { functionName: name, location: where, selfMs: 0, selfPercent: 0 };
    entry.selfMs += ms;
    byFunction.set(key, entry);
    const area = location ? areaOf(location) : name.startsWith('(') ? name : 'V8 / native';
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
    // Time spent in or below each gengate function of the (synchronous) stack, once per stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = describe(nodeById.get(at)!);
      if (!isGengateCode(frame.location)) continue;
      const frameKey = `${frame.name}\u0000${frame.where}`;
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      const total = inclusive.get(frameKey) ?? { functionName: frame.name, location: frame.where, selfMs: 0, selfPercent: 0 };
      total.selfMs += ms;
      inclusive.set(frameKey, total);
    }
  }
  const percent = (ms: number): number => (busyMs > 0 ? (ms / busyMs) * 100 : 0);
  const ranked = (entries: Iterable<ProfileEntry>, limit: number): ProfileEntry[] =>
    [...entries]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, limit)
      .map((entry) => ({ ...entry, selfPercent: percent(entry.selfMs) }));
  return {
    scenario: options.scenario,
    totalMs: busyMs,
    top: ranked(byFunction.values(), options.top ?? 20),
    gengateInclusive: ranked(inclusive.values(), 15),
    byArea: [...byArea.entries()].map(([area, selfMs]) => ({ area, selfMs, selfPercent: percent(selfMs) })).sort((a, b) => b.selfMs - a.selfMs),
  };
}
