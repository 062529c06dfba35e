/** The sandbox's pacing when neither the gateway's `sandbox` settings nor a channel say otherwise. */
export const SANDBOX_DEFAULTS = { tokensPerSecond: 200, firstTokenDelayMs: 20, failureRate: 0, taskMs: 4_000, taskFailureRate: 0 } as const;
