/**
 * The one place admission is put together from its parts: the rules in force (a `RuleSource`),
 * the counters (a `CounterStore`: in memory, or Redis behind its guard) and the settings, plus
 * what the gateway lends it (prices, the ledger's spend for seeding budget counters, the audit
 * trail for soft thresholds). `app.ts` calls it only when limits are configured.
 */
import type { IntegerPrice } from '../routing/integer-price.js';
import type { BudgetRule, CounterStore, RuleSource } from './contract.js';
import { LimitsService, type LimitsSettings } from './limits-service.js';

/** `admission.outputTokenEstimate` when unset. */
export const DEFAULT_OUTPUT_TOKEN_ESTIMATE = 4096;
/** `admission.leaseMs` when unset: a dead replica's holds are gone within a minute. */
export const DEFAULT_LEASE_MS = 60_000;

export interface OpenLimitsOptions {
  rules: RuleSource;
  counters: CounterStore;
  settings?: Partial<LimitsSettings>;
  priceOf(model: string): IntegerPrice | undefined;
  spentInPeriod?(rule: BudgetRule, start: number, end: number | null): Promise<number>;
  onSoftThreshold?(rule: BudgetRule, label: string, spentNusd: number): void;
  warn?(detail: Record<string, unknown>, message: string): void;
  now?(): number;
}

export function openLimits(options: OpenLimitsOptions): LimitsService {
  return new LimitsService({
    rules: options.rules,
    counters: options.counters,
    settings: {
      outputTokenEstimate: options.settings?.outputTokenEstimate ?? DEFAULT_OUTPUT_TOKEN_ESTIMATE,
      leaseMs: options.settings?.leaseMs ?? DEFAULT_LEASE_MS,
      allowUnpriced: options.settings?.allowUnpriced ?? false,
    },
    priceOf: options.priceOf,
    spentInPeriod: options.spentInPeriod,
    onSoftThreshold: options.onSoftThreshold,
    warn: options.warn,
    now: options.now,
  });
}
