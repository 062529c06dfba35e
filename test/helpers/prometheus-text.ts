/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line is a
 * HELP, a TYPE or a sample; names and label names are valid; label values use only the three
 * escapes; each family is declared once, its HELP and TYPE before its samples; a sample belongs
 * to a declared family (a histogram's `_bucket`, `_sum`, `_count`); no series appears twice; a
 * histogram's buckets grow, end at `+Inf`, and `+Inf` equals `_count`. Throws on anything else.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample of `name` whose labels include `labels`; 0 when there is none; throws when several match. */
  value(name: string, labels?: Record<string, string>): number;
  /** The sum over samples of `name` whose labels include `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
  /** Distinct series (label sets) of a family's samples named `name`. */
  seriesCount(name: string): number;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // Prometheus reads values with Go's ParseFloat, which takes NaN in any case: prom-client writes `Nan` (a lag gauge before its first sample).
  if (text.toLowerCase() === 'nan') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value ${JSON.stringify(text)} in: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)} in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else if (text[j] === '\n') throw new Error(`raw newline in: ${line}`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (i < text.length) {
      if (text[i] !== ',') throw new Error(`expected a comma in: ${line}`);
      i++;
    }
  }
  return labels;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      if (types.get(base) === 'histogram' || (suffix !== '_bucket' && types.get(base) === 'summary')) return base;
    }
  }
  return undefined;
}

export function parsePrometheusText(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const sampled = new Set<string>();
  const seen = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) ([^ ]+) ?(.*)$/.exec(line);
      if (!match) {
        if (line.startsWith('# HELP') || line.startsWith('# TYPE')) throw new Error(`bad comment: ${line}`);
        continue;
      }
      const [, kind, name, rest] = match;
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (sampled.has(name)) throw new Error(`${kind} of ${name} after its samples`);
      if (kind === 'HELP') {
        if (helped.has(name)) throw new Error(`HELP of ${name} twice`);
        helped.add(name);
      } else {
        if (types.has(name)) throw new Error(`TYPE of ${name} twice`);
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        types.set(name, rest);
      }
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)(?: (-?\d+))?$/.exec(line);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name, labelText, valueText] = match;
    const family = familyOf(name, types);
    if (family === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    sampled.add(family);
    const labels = labelText ? parseLabels(labelText, line) : {};
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  checkHistograms(types, samples);
  const matches = (name: string, labels: Record<string, string>) => (sample: Sample) =>
    sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v);
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = samples.filter(matches(name, labels));
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value ?? 0;
    },
    sum(name, labels = {}) {
      return samples.filter(matches(name, labels)).reduce((total, sample) => total + sample.value, 0);
    },
    seriesCount(name) {
      return samples.filter((sample) => sample.name === name).length;
    },
  };
}

function checkHistograms(types: Map<string, string>, samples: Sample[]): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const bySeries = new Map<string, Sample[]>();
    for (const sample of samples) {
      if (sample.name !== `${family}_bucket`) continue;
      const { le, ...rest } = sample.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = JSON.stringify(Object.entries(rest).sort());
      bySeries.set(key, [...(bySeries.get(key) ?? []), sample]);
    }
    for (const [key, buckets] of bySeries) {
      let previous = Number.NEGATIVE_INFINITY;
      let last = -1;
      for (const bucket of buckets) {
        const le = parseValue(bucket.labels.le, `${family} le`);
        if (le <= previous) throw new Error(`${family}${key}: buckets out of order`);
        if (bucket.value < last) throw new Error(`${family}${key}: bucket counts decrease`);
        previous = le;
        last = bucket.value;
      }
      if (previous !== Number.POSITIVE_INFINITY) throw new Error(`${family}${key}: no +Inf bucket`);
      const labels = Object.fromEntries(JSON.parse(key) as Array<[string, string]>);
      const count = samples.find(
        (s) => s.name === `${family}_count` && JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(Object.entries(labels).sort()),
      );
      if (!count || count.value !== last) throw new Error(`${family}${key}: +Inf bucket ${last} is not _count ${count?.value}`);
    }
  }
}
