import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './prometheus-text.js';

const HISTOGRAM = [
  '# HELP h_seconds A histogram.',
  '# TYPE h_seconds histogram',
  'h_seconds_bucket{a="x",le="0.1"} 1',
  'h_seconds_bucket{a="x",le="+Inf"} 3',
  'h_seconds_sum{a="x"} 0.7',
  'h_seconds_count{a="x"} 3',
];

describe('the strict Prometheus text reader', () => {
  it('reads counters, escaped label values and histograms', () => {
    const text = ['# HELP c_total A counter.', '# TYPE c_total counter', 'c_total{v="a\\"b\\\\c\\nd"} 2', ...HISTOGRAM, ''].join('\n');
    const parsed = parsePrometheusText(text);
    expect(parsed.value('c_total', { v: 'a"b\\c\nd' })).toBe(2);
    expect(parsed.value('h_seconds_count', { a: 'x' })).toBe(3);
  });

  it.each([
    ['no final newline', '# TYPE c counter\nc 1'],
    ['an undeclared family', '# TYPE c counter\nd 1\n'],
    ['a series twice', '# TYPE c counter\nc{a="1"} 1\nc{a="1"} 2\n'],
    ['a bad escape', '# TYPE c counter\nc{a="\\t"} 1\n'],
    ['an unquoted value', '# TYPE c counter\nc{a=1} 1\n'],
    ['a bad number', '# TYPE c counter\nc 1,5\n'],
    ['a TYPE after samples', '# TYPE c counter\nc 1\n# TYPE c counter\n'],
    ['a bad label name', '# TYPE c counter\nc{1a="x"} 1\n'],
    ['decreasing buckets', `${HISTOGRAM.join('\n').replace('le="+Inf"} 3', 'le="+Inf"} 0').replace('_count{a="x"} 3', '_count{a="x"} 0')}\n`],
    ['+Inf not the count', `${HISTOGRAM.join('\n').replace('_count{a="x"} 3', '_count{a="x"} 4')}\n`],
    ['no +Inf bucket', `${HISTOGRAM.filter((line) => !line.includes('+Inf')).join('\n')}\n`],
  ])('refuses %s', (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
