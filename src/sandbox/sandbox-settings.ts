/**
 * The sandbox's effective settings for one channel: the gateway-wide `sandbox` settings,
 * overridden by the channel's `options` (same keys), plus the channel-only failure drills.
 */
import { SANDBOX_DEFAULTS } from './sandbox-defaults.js';

/** The gateway-wide `sandbox` settings (gengate.yaml); a sandbox channel's `options` override the pacing ones. */
export interface SandboxSettings {
  enabled: boolean;
  /** Streaming pace of simulated output. */
  tokensPerSecond: number;
  /** Delay before the first simulated token. */
  firstTokenDelayMs: number;
  /** Share of simulated requests that fail with an upstream error (0–1), for failover drills. */
  failureRate: number;
  /** How long one simulated task (image task, imagegen1, video) takes from submit to result. */
  taskMs: number;
  /** Share of simulated tasks (0–1) that end in failure after running for a while. */
  taskFailureRate: number;
  /** Longest side of a sandbox image, in pixels (at most 4096). */
  maxImageSide: number;
  /** Largest short side of a sandbox video (`1080` for 1080p; 144 to 1080). */
  maxVideoShortSide: number;
  /** Longest sandbox video, in seconds (at most 20). */
  maxVideoSeconds: number;
  /** Largest sandbox video file, in bytes; a longer or larger asked video is refused at submit. */
  maxVideoBytes: number;
}

export interface SandboxRuntimeSettings {
  /** Streaming pace; 0 (or not finite) streams as fast as the client reads. */
  tokensPerSecond: number;
  /** Wait before the first simulated token; 0 means none. */
  firstTokenDelayMs: number;
  /** Share (0–1) of requests that fail before the first byte, chosen by request hash. */
  failureRate: number;
  /** Model ids (public or upstream) whose requests always fail before the first byte. */
  failModels: ReadonlySet<string>;
  /** Streams end with an `error` event after some output. */
  failMidStream: boolean;
  /** How long a simulated task takes from submit to result; 0 finishes on the first poll. */
  taskMs: number;
  /** Share (0–1) of simulated tasks that fail after running a while, chosen by task id hash. */
  taskFailureRate: number;
}

type Pacing = Pick<SandboxSettings, 'tokensPerSecond' | 'firstTokenDelayMs' | 'failureRate' | 'taskMs' | 'taskFailureRate'>;
/** The task settings may be left out: they default like the gateway's. */
type PacingInput = Omit<Pacing, 'taskMs' | 'taskFailureRate'> & Partial<Pick<Pacing, 'taskMs' | 'taskFailureRate'>>;

function nonNegative(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function rate(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

export function resolveSandboxSettings(base: PacingInput, options: Record<string, unknown>): SandboxRuntimeSettings {
  const failModels = Array.isArray(options.failModels) ? options.failModels.filter((m): m is string => typeof m === 'string') : [];
  return {
    tokensPerSecond: nonNegative(options.tokensPerSecond, base.tokensPerSecond),
    firstTokenDelayMs: nonNegative(options.firstTokenDelayMs, base.firstTokenDelayMs),
    failureRate: rate(options.failureRate, base.failureRate),
    failModels: new Set(failModels),
    failMidStream: options.failMidStream === true,
    taskMs: nonNegative(options.taskMs, base.taskMs ?? SANDBOX_DEFAULTS.taskMs),
    taskFailureRate: rate(options.taskFailureRate, base.taskFailureRate ?? SANDBOX_DEFAULTS.taskFailureRate),
  };
}

/** Fills settings the caller left out with the gateway defaults. */
export function completeSandboxSettings(settings: Partial<SandboxSettings> | undefined): Pacing {
  const defaults = SANDBOX_DEFAULTS;
  return {
    tokensPerSecond: nonNegative(settings?.tokensPerSecond, defaults.tokensPerSecond),
    firstTokenDelayMs: nonNegative(settings?.firstTokenDelayMs, defaults.firstTokenDelayMs),
    failureRate: rate(settings?.failureRate, defaults.failureRate),
    taskMs: nonNegative(settings?.taskMs, defaults.taskMs),
    taskFailureRate: rate(settings?.taskFailureRate, defaults.taskFailureRate),
  };
}

/**
 * Resolves per channel options object once: channels keep their `options` object for their
 * lifetime, so the hot path does not rebuild the settings on every request.
 */
export function createSettingsResolver(settings: Partial<SandboxSettings> | undefined): (options: Record<string, unknown>) => SandboxRuntimeSettings {
  const base = completeSandboxSettings(settings);
  const cache = new WeakMap<Record<string, unknown>, SandboxRuntimeSettings>();
  return (options) => {
    let resolved = cache.get(options);
    if (!resolved) {
      resolved = resolveSandboxSettings(base, options ?? {});
      if (options) cache.set(options, resolved);
    }
    return resolved;
  };
}
