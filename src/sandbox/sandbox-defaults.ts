/** The sandbox's pacing when neither the gateway's `sandbox` settings nor a channel say otherwise. */
export const SANDBOX_DEFAULTS = { tokensPerSecond: 200, firstTokenDelayMs: 20, failureRate: 0, taskMs: 4_000, taskFailureRate: 0 } as const;

/**
 * How large the sandbox's media may be, gateway-wide (`sandbox.maxImageSide`, `maxVideoShortSide`,
 * `maxVideoSeconds`, `maxVideoBytes`): free simulated calls fill the media store like paid ones.
 * Each is also capped by what the sandbox can draw at all.
 */
export const SANDBOX_MEDIA_DEFAULTS = { maxImageSide: 4096, maxVideoShortSide: 1080, maxVideoSeconds: 20, maxVideoBytes: 64 * 1024 * 1024 } as const;
