import { describe, expect, it } from 'vitest';
import { judgeStream, openAIStreamText } from './stream-capacity.js';

const EXPECTED =
  'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n' +
  'data: {"choices":[{"index":0,"delta":{"content":"lorem"}}]}\n\n' +
  'data: {"choices":[{"index":0,"delta":{"content":" ipsum"}}]}\n\n' +
  'data: [DONE]\n\n';

describe('openAIStreamText', () => {
  it('joins the delta texts and notices [DONE], with LF or CRLF framing', () => {
    expect(openAIStreamText(EXPECTED)).toEqual({ text: 'lorem ipsum', done: true });
    expect(openAIStreamText(EXPECTED.replace(/\n/g, '\r\n'))).toEqual({ text: 'lorem ipsum', done: true });
    expect(openAIStreamText(EXPECTED.slice(0, EXPECTED.indexOf('data: [DONE]')))).toEqual({ text: 'lorem ipsum', done: false });
  });
});

describe('judgeStream', () => {
  const expected = Buffer.from(EXPECTED);

  it('accepts the exact bytes', () => {
    expect(judgeStream(200, Buffer.from(EXPECTED), expected, 'lorem ipsum')).toEqual({ byteIdentical: true, contentIntact: true });
  });

  it('tells reframed-but-intact from identical', () => {
    const reframed = EXPECTED.replace(/"index":0,/g, '');
    expect(judgeStream(200, Buffer.from(reframed), expected, 'lorem ipsum')).toEqual({ byteIdentical: false, contentIntact: true });
  });

  it('fails a truncated stream or a wrong status, saying why', () => {
    const cut = EXPECTED.slice(0, 120);
    const truncated = judgeStream(200, Buffer.from(cut), expected, 'lorem ipsum');
    expect(truncated.contentIntact).toBe(false);
    expect(truncated.problem).toContain('[DONE] missing');
    const refused = judgeStream(503, Buffer.from('{"error":"busy"}'), expected, 'lorem ipsum');
    expect(refused).toEqual({ byteIdentical: false, contentIntact: false, problem: 'status 503: {"error":"busy"}' });
  });
});
