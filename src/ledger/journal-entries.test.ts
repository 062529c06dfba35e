import { describe, expect, it } from 'vitest';
import { USAGE_NUMBER_COLUMNS, USAGE_TEXT_COLUMNS, type UsageRow } from '../store/usage-repository.js';
import { interruptedRow, openLine, parseJournalLine, rowLine, type OpenCall } from './journal-entries.js';

const open: OpenCall = {
  request_id: 'req_1',
  key_id: 'k1',
  surface: 'anthropic',
  operation: 'chat',
  model: 'm',
  stream: true,
  created_at: 1_000,
  account_id: 'acct_1',
};
const row: UsageRow = {
  request_id: 'req_1',
  key_id: 'k1',
  surface: 'anthropic',
  operation: 'chat',
  model: 'm',
  channel: 'c',
  provider: 'sandbox',
  upstream_model: 'm',
  outcome: 'ok',
  stream: 1,
  input_tokens: 5,
  output_tokens: 7,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  units: 0,
  cost_nusd: 500_000_000,
  latency_ms: 30,
  created_at: 1_030,
  account_id: 'acct_1',
};

describe('journal entries', () => {
  it('read back what was written, one line each', () => {
    expect(openLine(open).endsWith('\n')).toBe(true);
    expect(parseJournalLine(openLine(open).trimEnd())).toEqual({ open });
    expect(parseJournalLine(rowLine(row).trimEnd())).toEqual({ row });
  });

  it('write the JSON that JSON.stringify writes, every column included, whatever the strings hold', () => {
    const odd = { ...row, model: 'm "quoted" \\ ✓ \u0001 \u2028', outcome: 'ok\n', cost_nusd: Number.NaN, account_id: null };
    expect(JSON.parse(rowLine(odd))).toEqual(JSON.parse(JSON.stringify({ r: odd })));
    expect(Object.keys(JSON.parse(rowLine(row)).r).sort()).toEqual([...USAGE_TEXT_COLUMNS, ...USAGE_NUMBER_COLUMNS, 'account_id'].sort());
    const oddOpen = { ...open, key_id: 'k "1"', created_at: 1.5e12, account_id: undefined };
    expect(JSON.parse(openLine(oddOpen))).toEqual(JSON.parse(JSON.stringify({ o: oddOpen })));
    expect(JSON.parse(openLine({ ...open, account_id: null }))).toEqual({ o: { ...open, account_id: null } });
  });

  it('read lines written before accounts existed as rows and calls of no account', () => {
    const { account_id: _row, ...oldRow } = row;
    const { account_id: _open, ...oldOpen } = open;
    expect(parseJournalLine(JSON.stringify({ r: oldRow }))).toEqual({ row: { ...oldRow, account_id: null } });
    expect(parseJournalLine(JSON.stringify({ o: oldOpen }))).toEqual({ open: { ...oldOpen, account_id: null } });
    expect(interruptedRow({ ...oldOpen }, 2_000).account_id).toBeNull();
  });

  it('read a line written before money was integers (cost_usd, nUSD / 10⁹) as its integer nUSD', () => {
    const { cost_nusd: _cost, ...rest } = row;
    // 12,345 nUSD was written as 0.000012345, and 0.3 USD as 0.3.
    expect(parseJournalLine(JSON.stringify({ r: { ...rest, cost_usd: 0.000012345 } }))).toEqual({ row: { ...row, cost_nusd: 12_345 } });
    expect(parseJournalLine(JSON.stringify({ r: { ...rest, cost_usd: 0.1 + 0.2 } }))).toEqual({ row: { ...row, cost_nusd: 300_000_000 } });
    expect(parseJournalLine(JSON.stringify({ r: { ...rest, cost_usd: '0.1' } }))).toBeUndefined();
    expect(parseJournalLine(JSON.stringify({ r: { ...row, cost_nusd: 1.5 } }))).toBeUndefined();
  });

  it('skip a torn line (a write cut by kill -9) and lines with a missing or mistyped field', () => {
    const line = rowLine(row).trimEnd();
    expect(parseJournalLine(line.slice(0, line.length - 3))).toBeUndefined();
    expect(parseJournalLine(JSON.stringify({ r: { ...row, input_tokens: '5' } }))).toBeUndefined();
    expect(parseJournalLine(JSON.stringify({ o: { ...open, stream: undefined } }))).toBeUndefined();
    expect(parseJournalLine('[1,2]')).toBeUndefined();
    expect(parseJournalLine('')).toBeUndefined();
  });

  it('close an open call as interrupted with what was known', () => {
    expect(interruptedRow(open, 4_000)).toMatchObject({
      request_id: 'req_1',
      key_id: 'k1',
      surface: 'anthropic',
      operation: 'chat',
      model: 'm',
      stream: 1,
      outcome: 'interrupted',
      input_tokens: 0,
      output_tokens: 0,
      cost_nusd: 0,
      latency_ms: 3_000,
      created_at: 1_000,
      account_id: 'acct_1',
      error_type: 'gateway.internal',
    });
  });

  it('carry a failed call’s error type, and read lines without one (older, or a success) as rows of none', () => {
    const failed: UsageRow = { ...row, outcome: 'timeout', error_type: 'upstream.timeout' };
    expect(JSON.parse(rowLine(failed)).r.error_type).toBe('upstream.timeout');
    expect(parseJournalLine(rowLine(failed).trimEnd())).toEqual({ row: failed });
    // A line from before error types: recovered, with no type.
    const recovered = parseJournalLine(JSON.stringify({ r: row }));
    expect(recovered).toEqual({ row });
    expect(recovered && 'row' in recovered ? recovered.row.error_type : 'missing').toBeUndefined();
    // A type outside the vocabulary is dropped, the row kept.
    expect(parseJournalLine(JSON.stringify({ r: { ...row, error_type: 'client.whatever' } }))).toEqual({ row });
    expect(parseJournalLine(JSON.stringify({ r: { ...row, error_type: 42 } }))).toEqual({ row });
  });
});
