/**
 * Counters and histograms whose hot path is a field increment: a series is resolved once (by
 * the caller, who caches it per bounded label set) and then counted without hashing its labels,
 * as prom-client's own metrics do on every observation. They render themselves in the
 * Prometheus text format; `/metrics` puts them beside prom-client's gauges and process metrics.
 */
export type Labels = Readonly<Record<string, string>>;

export class CounterSeries {
  value = 0;
  constructor(readonly labelText: string) {}
  inc(by = 1): void {
    this.value += by;
  }
}

export class HistogramSeries {
  /** Per bucket (not cumulative); the last is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labelText: string,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

/** `a="x",b="y"` with the text format's escapes (backslash, quote, newline). */
export function labelText(labels: Labels): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');
}

function sample(name: string, labels: string, value: number): string {
  return `${labels ? `${name}{${labels}}` : name} ${formatValue(value)}\n`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

abstract class Family<S extends { labelText: string }> {
  /** Every series made, in creation order (none is dropped: callers keep the label set bounded). */
  protected readonly all: S[] = [];
  private readonly byKey = new Map<string, S>();
  protected abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  /** The series of these labels; callers on a hot path keep what this returns. */
  series(labels: Labels): S {
    const text = labelText(labels);
    let series = this.byKey.get(text);
    if (!series) {
      series = this.make(text);
      this.byKey.set(text, series);
      this.all.push(series);
    }
    return series;
  }

  get size(): number {
    return this.all.length;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${this.name} ${this.type}\n`;
    for (const series of this.all) out += this.renderSeries(series);
    return out;
  }

  protected abstract make(labelText: string): S;
  protected abstract renderSeries(series: S): string;
}

export class CounterFamily extends Family<CounterSeries> {
  protected readonly type = 'counter';
  protected make(text: string): CounterSeries {
    return new CounterSeries(text);
  }
  protected renderSeries(series: CounterSeries): string {
    return sample(this.name, series.labelText, series.value);
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  protected readonly type = 'histogram';
  private readonly bounds: readonly number[];
  private readonly le: readonly string[];

  constructor(name: string, help: string, bounds: readonly number[]) {
    super(name, help);
    this.bounds = [...bounds].sort((a, b) => a - b);
    this.le = [...this.bounds.map((bound) => `le="${formatValue(bound)}"`), 'le="+Inf"'];
  }

  protected make(text: string): HistogramSeries {
    return new HistogramSeries(text, this.bounds);
  }

  protected renderSeries(series: HistogramSeries): string {
    const prefix = series.labelText ? `${series.labelText},` : '';
    let out = '';
    let cumulative = 0;
    for (let i = 0; i < this.le.length; i++) {
      cumulative += series.counts[i];
      out += sample(`${this.name}_bucket`, prefix + this.le[i], cumulative);
    }
    out += sample(`${this.name}_sum`, series.labelText, series.sum);
    out += sample(`${this.name}_count`, series.labelText, series.count);
    return out;
  }
}

/** The value under `key`, made and kept on first use (for the caches of series, keyed by label values). */
export function getOrMake<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
