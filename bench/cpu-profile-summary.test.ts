import { describe, expect, it } from 'vitest';
import { areaOf, shortLocation, summarizeCpuProfile, type CpuProfile } from './cpu-profile-summary.js';

const ROOT = '/work/main';

describe('shortLocation and areaOf', () => {
  it('shortens repo files, packages and node core', () => {
    expect(shortLocation('file:///work/main/dist/providers/openai/openai-passthrough.js', ROOT)).toBe('dist/providers/openai/openai-passthrough.js');
    expect(shortLocation('file:///work/main/node_modules/fastify/lib/reply.js', ROOT)).toBe('fastify/lib/reply.js');
    expect(shortLocation('node:internal/streams/readable', ROOT)).toBe('node:internal/streams/readable');
    expect(shortLocation('', ROOT)).toBe('');
  });

  it('groups by package, gengate folder, node area or V8', () => {
    expect(areaOf('dist/providers/openai/openai-passthrough.js')).toBe('dist/providers/openai');
    expect(areaOf('dist/app.js')).toBe('dist');
    expect(areaOf('fastify/lib/reply.js')).toBe('fastify');
    expect(areaOf('@fastify/ajv-compiler/index.js')).toBe('@fastify/ajv-compiler');
    expect(areaOf('undici/lib/dispatcher/client-h1.js')).toBe('undici');
    expect(areaOf('node:internal/streams/readable')).toBe('node:internal/streams');
    expect(areaOf('node:net')).toBe('node:net');
    expect(areaOf('')).toBe('V8 / native');
  });
});

describe('summarizeCpuProfile', () => {
  // 10 samples over 10 ms: 1 ms each. Idle time is left out of the percentages.
  const profile: CpuProfile = {
    startTime: 0,
    endTime: 10_000,
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3, 5, 6, 7] },
      { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      { id: 3, callFrame: { functionName: 'send', url: 'file:///work/main/node_modules/fastify/lib/reply.js', lineNumber: 9 } },
      { id: 4, callFrame: { functionName: 'tapSse', url: 'file:///work/main/dist/providers/shared/usage-tap.js', lineNumber: 19 } },
      { id: 5, callFrame: { functionName: 'tapSse', url: 'file:///work/main/dist/providers/shared/usage-tap.js', lineNumber: 19 } },
      { id: 6, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
      { id: 7, callFrame: { functionName: 'chatCompletions', url: 'file:///work/main/dist/surfaces/openai/routes.js', lineNumber: 9 }, children: [4] },
    ],
    samples: [2, 2, 3, 4, 4, 5, 6, 3, 4, 2],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };

  it('adds self time per function across call sites and ranks it', () => {
    const summary = summarizeCpuProfile(profile, { repoRoot: ROOT, scenario: 'chat c=64' });
    expect(summary.totalMs).toBeCloseTo(7, 9);
    expect(summary.top.map((e) => [e.functionName, e.location, Math.round(e.selfMs)])).toEqual([
      ['tapSse', 'dist/providers/shared/usage-tap.js:20', 4],
      ['send', 'fastify/lib/reply.js:10', 2],
      ['(garbage collector)', '', 1],
    ]);
    expect(summary.top[0].selfPercent).toBeCloseTo((4 / 7) * 100, 6);
  });

  it('groups self time by area', () => {
    const summary = summarizeCpuProfile(profile, { repoRoot: ROOT, scenario: 'x' });
    expect(summary.byArea.map((a) => [a.area, Math.round(a.selfMs)])).toEqual([
      ['dist/providers/shared', 4],
      ['fastify', 2],
      ['(garbage collector)', 1],
    ]);
  });

  it('adds time spent below each gengate function of the stack', () => {
    const summary = summarizeCpuProfile(profile, { repoRoot: ROOT, scenario: 'x' });
    expect(summary.gengateInclusive.map((e) => [e.functionName, e.location, Math.round(e.selfMs)])).toEqual([
      ['tapSse', 'dist/providers/shared/usage-tap.js:20', 4],
      ['chatCompletions', 'dist/surfaces/openai/routes.js:10', 3],
    ]);
  });

  it("counts only the samples inside a window, at the window's own rate", () => {
    // Samples fall at 1, 2, … 10 ms; the window 3–6 ms holds samples 3 to 6: ids 3, 4, 4, 5.
    const summary = summarizeCpuProfile(profile, { repoRoot: ROOT, scenario: 'x', window: { startUs: 3000, endUs: 6000 } });
    expect(summary.totalMs).toBeCloseTo(3, 9);
    expect(summary.top.map((e) => [e.functionName, e.selfMs])).toEqual([
      ['tapSse', 2.25],
      ['send', 0.75],
    ]);
  });

  it('falls back to hitCount when samples are absent', () => {
    const summary = summarizeCpuProfile(
      {
        startTime: 0,
        endTime: 4000,
        nodes: [
          { id: 1, callFrame: { functionName: 'a', url: 'node:net', lineNumber: 0 }, hitCount: 3 },
          { id: 2, callFrame: { functionName: 'b', url: 'node:net', lineNumber: 5 }, hitCount: 1 },
        ],
      },
      { repoRoot: ROOT, scenario: 'y', top: 1 },
    );
    expect(summary.top).toEqual([{ functionName: 'a', location: 'node:net:1', selfMs: 3, selfPercent: 75 }]);
  });
});
