/**
 * The shipped Grafana dashboard and Prometheus alert rules (deploy/) name only metrics gengate
 * really exposes: every metric in their queries is declared in a real scrape.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string };
}
interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}

const dashboard = JSON.parse(readFileSync('deploy/grafana/gengate.json', 'utf8')) as { uid: string; panels: Panel[] };
const alerts = parseYaml(readFileSync('deploy/prometheus/alerts.yaml', 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };

let declared: Map<string, string>;
/** Label names of the scrape (GenAI ones look like metric names: `gen_ai_request_model`). */
let labelNames: Set<string>;
let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway({ metrics: { enabled: true, listen: { host: '127.0.0.1', port: 0 } } });
  // One call, so that the call series (and their GenAI labels) exist.
  await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
  const scrape = parsePrometheusText(await (await fetch(`${gw.gateway.metricsUrl}/metrics`)).text());
  declared = scrape.types;
  labelNames = new Set(scrape.samples.flatMap((sample) => Object.keys(sample.labels)));
});
afterAll(async () => {
  await gw?.close();
});

const METRIC = /\b((?:gengate|gen_ai|process|nodejs)_[a-z0-9_]+)\b/g;

/** Metrics a query names that no scrape declares (a histogram's `_bucket`, `_sum`, `_count` count as the histogram). */
function undeclared(expr: string): string[] {
  return [...expr.matchAll(METRIC)]
    .map((match) => match[1])
    .filter((name) => {
      if (declared.has(name) || labelNames.has(name)) return false;
      const base = name.replace(/_(bucket|sum|count)$/, '');
      return declared.get(base) !== 'histogram';
    });
}

describe('deploy/grafana/gengate.json', () => {
  it('queries only metrics gengate exposes', () => {
    const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(queries.length).toBeGreaterThan(20);
    expect(queries.flatMap(undeclared)).toEqual([]);
  });
});

describe('deploy/prometheus/alerts.yaml', () => {
  const rules = alerts.groups.flatMap((group) => group.rules);

  it('alerts on upstream errors, gateway 5xx, overhead p99, queue depth and the journal backlog', () => {
    const exprs = rules.map((rule) => rule.expr).join('\n');
    for (const metric of [
      'gengate_upstream_attempt_failures_total',
      'gengate_http_responses_total',
      'gengate_overhead_seconds_bucket',
      'gengate_task_queue_depth',
      'gengate_usage_journal_backlog',
    ]) {
      expect(exprs).toContain(metric);
    }
  });

  it('names only metrics gengate exposes, each rule with a duration, a severity and a summary', () => {
    expect(rules.flatMap((rule) => undeclared(rule.expr))).toEqual([]);
    for (const rule of rules) {
      expect(rule.alert).toMatch(/^Gengate[A-Za-z0-9]+$/);
      expect(rule.for).toMatch(/^\d+m$/);
      expect(['info', 'warning', 'critical']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
    }
  });
});
