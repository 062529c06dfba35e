import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { renderVideogen3Error } from './render-error.js';

describe('renderVideogen3Error', () => {
  it('answers Luma’s {detail} with the status of the error’s kind', () => {
    expect(renderVideogen3Error(new GatewayError('not_found', 'no video task with id "x"'), 'r1')).toEqual({
      status: 404,
      body: { detail: 'no video task with id "x"' },
      headers: { 'x-request-id': 'r1' },
    });
    expect(renderVideogen3Error(new GatewayError('insufficient_quota', 'budget spent'), 'r2')).toMatchObject({ status: 429, body: { detail: 'budget spent' } });
  });
});
