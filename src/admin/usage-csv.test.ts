import { describe, expect, it } from 'vitest';
import type { UsageReportRow } from '../store/usage-report.js';
import { csvCell, usageCsv } from './usage-csv.js';

function row(group: string, label: string): UsageReportRow {
  return {
    group,
    label,
    requests: 3,
    errors: 1,
    inputTokens: 10,
    cacheReadTokens: 4,
    cacheWriteTokens: 0,
    outputTokens: 5,
    reasoningTokens: 0,
    units: 0,
    unpriced: 2,
    costNusd: 250_000_000,
    costUsd: 0.25,
    latencyMs: { p50: 100, p95: null, p99: null },
  };
}

describe('usage CSV', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(null)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes costs exactly from the integer nUSD, with the integer after the latencies', () => {
    const costs = (costNusd: number) => usageCsv({ from: 0, to: 1, groupBy: 'key', rows: [], totals: { ...row('', 'Total'), costNusd }, truncated: false });
    const cells = (text: string) => text.split('\r\n')[1].split(',');
    expect(cells(costs(300_000_000))).toEqual(['total', 'Total', '3', '1', '10', '4', '0', '5', '0', '0', '0.3', '100', '', '', '300000000', '2']);
    expect(cells(costs(100))[10]).toBe('0.0000001');
    expect(cells(costs(12_345))[10]).toBe('0.000012345');
    expect(cells(costs(2_000_000_000))[10]).toBe('2');
    expect(cells(costs(0))[10]).toBe('0');
  });

  it('writes a header, one CRLF-ended line per row, then the totals', () => {
    const text = usageCsv({ from: 0, to: 86_400_000, groupBy: 'key', rows: [row('k1', '=evil, "key"')], totals: row('', 'Total'), truncated: false });
    expect(text.split('\r\n')).toEqual([
      'group,label,requests,errors,input_tokens,cache_read_tokens,cache_write_tokens,output_tokens,reasoning_tokens,units,cost_usd,latency_p50_ms,latency_p95_ms,latency_p99_ms,cost_nusd,unpriced',
      `k1,"'=evil, ""key""",3,1,10,4,0,5,0,0,0.25,100,,,250000000,2`,
      'total,Total,3,1,10,4,0,5,0,0,0.25,100,,,250000000,2',
      '',
    ]);
  });
});
