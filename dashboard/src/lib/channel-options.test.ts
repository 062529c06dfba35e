import { describe, expect, it } from 'vitest';
import { parseOptions } from './channel-options.js';

describe('parseOptions', () => {
  it('takes an empty field as no options', () => {
    expect(parseOptions('  ')).toEqual({});
  });

  it('takes a JSON object', () => {
    expect(parseOptions('{"region": "eu-west-1", "webhookSecret": null}')).toEqual({ options: { region: 'eu-west-1', webhookSecret: null } });
  });

  it.each(['{region: eu-west-1}', '[1]', 'null', '"eu-west-1"', '3'])('refuses %s with a message showing the form', (text) => {
    expect(parseOptions(text).error).toMatch(/^Options must be (JSON|a JSON object), e\.g\. \{"region": "eu-west-1"\}\.$/);
  });
});
