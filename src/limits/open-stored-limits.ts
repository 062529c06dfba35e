/**
 * The limits a running gateway uses: the rules stored in its database (followed on the `limits`
 * invalidation topic) and the counters — in Redis when `GENGATE_REDIS_URL` is set, so every
 * replica counts together, else in this process — with `admission.*`'s deadline and failure
 * policy.
 */
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/types.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';
import { LimitRulesRepository } from '../store/limit-rules-repository.js';
import type { OpenedStore } from '../store/open-store.js';
import type { CounterStore } from './contract.js';
import type { LimitsSettings } from './limits-service.js';
import { openCounterStore } from './open-counter-store.js';
import { MAX_RULES } from './rule-validation.js';
import { StoredRuleSource } from './stored-rule-source.js';

export interface LimitParts {
  rules: StoredRuleSource;
  counters: CounterStore;
  settings: Partial<LimitsSettings>;
}

export async function openStoredLimits(
  config: Pick<GatewayConfig, 'admission' | 'redisUrl'>,
  store: OpenedStore,
  bus: InvalidationBus,
  logger: Logger,
  /** The counters when no Redis is set, if not this process's memory (a cluster worker's, kept by its primary). */
  localCounters?: CounterStore,
): Promise<LimitParts> {
  const rules = new StoredRuleSource(new LimitRulesRepository(store.db, MAX_RULES), bus, logger);
  await rules.start();
  const { admission } = config;
  const counters = openCounterStore({
    redisUrl: config.redisUrl,
    keyPrefix: admission.redisKeyPrefix,
    timeoutMs: admission.redisTimeoutMs,
    failure: admission.failure,
    logger,
    inner: localCounters,
  });
  return { rules, counters, settings: { outputTokenEstimate: admission.outputTokenEstimate, leaseMs: admission.leaseMs } };
}
