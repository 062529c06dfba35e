import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './child-processes.js';
import { parseRunArgs } from './run-args.js';

describe('parseRunArgs', () => {
  it('defaults to the full run: every scenario and target at concurrency 1 and 64, 1000 streams', () => {
    const args = parseRunArgs([]);
    expect(args.durationSec).toBe(8);
    expect(args.connections).toEqual([1, 64]);
    expect(args.scenarios).toEqual([
      'chat',
      'chat-limited',
      'chat-traced',
      'chat-metrics',
      'chat-no-timing',
      'chat-stream',
      'cross-stream',
      'anthropic-stream',
      'responses-stream',
      'embeddings',
      'bad-key',
    ]);
    expect(args.targets).toEqual(['direct', 'bare-proxy', 'gengate', 'portkey']);
    expect(args.capacity).toEqual({ streams: 1000, tps: 10, size: 100, ttftMs: 100 });
    expect(args.gengateMode).toBe('dist');
    expect(args.gengateRoot).toBe(REPO_ROOT);
    expect(args.reportPath).toBe('docs/benchmarks.md');
    expect(args.profile).toBe(true);
    expect(args.profileScenario).toBe('chat');
  });

  it('shortens everything with --quick and lets flags override it', () => {
    const args = parseRunArgs(['--quick', '--duration=3', '--streams', '50', '--targets', 'direct,gengate', '--no-report', '--no-profile']);
    expect(args.durationSec).toBe(3);
    expect(args.warmupSec).toBe(0.5);
    expect(args.capacity?.streams).toBe(50);
    expect(args.targets).toEqual(['direct', 'gengate']);
    expect(args.reportPath).toBeUndefined();
    expect(args.profile).toBe(false);
  });

  it('writes no report from a quick run unless asked to', () => {
    expect(parseRunArgs(['--quick']).reportPath).toBeUndefined();
    expect(parseRunArgs(['--quick', '--report', 'quick.md']).reportPath).toBe('quick.md');
  });

  it('measures another gengate checkout when asked', () => {
    expect(parseRunArgs(['--gengate-root', '/tmp/other-gengate']).gengateRoot).toBe('/tmp/other-gengate');
  });

  it('measures a baseline checkout next to gengate with --baseline-root', () => {
    const args = parseRunArgs(['--targets', 'direct,gengate,portkey', '--baseline-root', '/tmp/old-gengate']);
    expect(args.baselineRoot).toBe('/tmp/old-gengate');
    expect(args.targets).toEqual(['direct', 'gengate', 'gengate-base', 'portkey']);
    expect(parseRunArgs([]).baselineRoot).toBeUndefined();
    expect(() => parseRunArgs(['--targets', 'direct', '--baseline-root', '/tmp/old-gengate'])).toThrow(/--baseline-root: needs gengate/);
    // Only through --baseline-root: it is not one of the targets to pick.
    expect(() => parseRunArgs(['--targets', 'gengate-base'])).toThrow(/unknown target "gengate-base"/);
  });

  it('skips the capacity check with --streams 0', () => {
    expect(parseRunArgs(['--streams=0']).capacity).toBeUndefined();
  });

  it('names the flag that is wrong', () => {
    expect(() => parseRunArgs(['--duration=soon'])).toThrow(/--duration/);
    expect(() => parseRunArgs(['--scenarios=chat,nope'])).toThrow(/unknown scenario "nope"/);
    expect(() => parseRunArgs(['--targets=litellm'])).toThrow(/unknown target "litellm"/);
    expect(() => parseRunArgs(['--gengate=docker'])).toThrow(/--gengate/);
    expect(() => parseRunArgs(['--profile-scenario=fast'])).toThrow(/--profile-scenario/);
    expect(() => parseRunArgs(['--connections=0'])).toThrow(/--connections/);
    expect(() => parseRunArgs(['--bogus'])).toThrow();
  });
});
