import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseGeminiBatchEmbedRequest, parseGeminiEmbedContentRequest } from './parse-embed-request.js';

function rejection(parse: () => unknown): { param?: string; message: string; status: number } {
  try {
    parse();
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, message: error.message, status: error.status };
    throw error;
  }
  throw new Error('expected a rejection');
}

const M = 'text-embedding-004';

describe('parseGeminiEmbedContentRequest', () => {
  it('joins the text parts with a newline', () => {
    const body = { model: `models/${M}`, content: { parts: [{ text: 'first' }, { text: 'second' }] } };
    expect(parseGeminiEmbedContentRequest(body, M)).toEqual({ text: 'first\nsecond' });
  });

  it('reads taskType, title and outputDimensionality in camelCase', () => {
    const body = { content: { role: 'user', parts: [{ text: 'doc' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc title', outputDimensionality: 256 };
    expect(parseGeminiEmbedContentRequest(body, M)).toEqual({ text: 'doc', taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc title', dimensions: 256 });
  });

  it('reads them in snake_case too', () => {
    const body = { model: M, content: { parts: [{ text: 'q' }] }, task_type: 'CODE_RETRIEVAL_QUERY', output_dimensionality: 64 };
    expect(parseGeminiEmbedContentRequest(body, M)).toEqual({ text: 'q', taskType: 'CODE_RETRIEVAL_QUERY', dimensions: 64 });
  });

  it('treats TASK_TYPE_UNSPECIFIED as no task type', () => {
    expect(parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, taskType: 'TASK_TYPE_UNSPECIFIED' }, M)).toEqual({ text: 'x' });
  });

  it('refuses an unknown task type, naming the field as sent', () => {
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, task_type: 'SUMMARIZE' }, M))).toMatchObject({
      param: 'task_type',
      status: 400,
    });
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, taskType: 3 }, M))).toMatchObject({
      param: 'taskType',
      status: 400,
    });
  });

  it('refuses a title without RETRIEVAL_DOCUMENT', () => {
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, taskType: 'RETRIEVAL_QUERY', title: 'T' }, M))).toEqual({
      param: 'title',
      message: 'title: a title is only allowed with taskType RETRIEVAL_DOCUMENT',
      status: 400,
    });
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, title: 'T' }, M))).toMatchObject({ param: 'title' });
  });

  it('refuses a model other than the path model', () => {
    expect(rejection(() => parseGeminiEmbedContentRequest({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'x' }] } }, M))).toEqual({
      param: 'model',
      message: 'model: "models/gemini-embedding-001" does not match the model in the path (models/text-embedding-004)',
      status: 400,
    });
  });

  it('refuses missing, empty or non-text content', () => {
    expect(rejection(() => parseGeminiEmbedContentRequest({}, M))).toEqual({ param: 'content', message: 'content: is required', status: 400 });
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [] } }, M))).toMatchObject({ param: 'content.parts', status: 400 });
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: '' }] } }, M))).toMatchObject({ param: 'content', status: 400 });
    expect(
      rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'a' }, { inline_data: { mime_type: 'image/png', data: 'AAAA' } }] } }, M)),
    ).toEqual({ param: 'content.parts[1].text', message: 'content.parts[1].text: only text parts can be embedded', status: 400 });
    expect(rejection(() => parseGeminiEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, outputDimensionality: 0 }, M))).toMatchObject({
      param: 'outputDimensionality',
      status: 400,
    });
    expect(rejection(() => parseGeminiEmbedContentRequest('text', M))).toMatchObject({ status: 400 });
  });
});

describe('parseGeminiBatchEmbedRequest', () => {
  it('parses every request in order, each with its own options', () => {
    const body = {
      requests: [
        { model: `models/${M}`, content: { parts: [{ text: 'one' }] }, taskType: 'RETRIEVAL_QUERY' },
        { model: `models/${M}`, content: { parts: [{ text: 'two' }] }, task_type: 'RETRIEVAL_DOCUMENT', title: 'T2', output_dimensionality: 8 },
      ],
    };
    expect(parseGeminiBatchEmbedRequest(body, M)).toEqual([
      { text: 'one', taskType: 'RETRIEVAL_QUERY' },
      { text: 'two', taskType: 'RETRIEVAL_DOCUMENT', title: 'T2', dimensions: 8 },
    ]);
  });

  it('names the request whose model differs from the path', () => {
    const body = {
      requests: [
        { model: `models/${M}`, content: { parts: [{ text: 'a' }] } },
        { model: 'models/other', content: { parts: [{ text: 'b' }] } },
      ],
    };
    expect(rejection(() => parseGeminiBatchEmbedRequest(body, M))).toEqual({
      param: 'requests[1].model',
      message: 'requests[1].model: "models/other" does not match the model of the batch (models/text-embedding-004)',
      status: 400,
    });
  });

  it('names the field of the request that is wrong', () => {
    const body = { requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] }, task_type: 'NOPE' }] };
    expect(rejection(() => parseGeminiBatchEmbedRequest(body, M))).toMatchObject({ param: 'requests[1].task_type', status: 400 });
    expect(rejection(() => parseGeminiBatchEmbedRequest({ requests: [{ content: { parts: [{ text: 'b' }] }, title: 'x' }] }, M))).toMatchObject({
      param: 'requests[0].title',
    });
    expect(rejection(() => parseGeminiBatchEmbedRequest({ requests: [{ content: { parts: [{ text: 7 }] } }] }, M))).toMatchObject({
      param: 'requests[0].content.parts[0].text',
    });
  });

  it('refuses a missing, empty or oversized list', () => {
    expect(rejection(() => parseGeminiBatchEmbedRequest({}, M))).toEqual({ param: 'requests', message: 'requests: is required', status: 400 });
    expect(rejection(() => parseGeminiBatchEmbedRequest({ requests: [] }, M))).toMatchObject({ param: 'requests', status: 400 });
    const many = { requests: Array.from({ length: 2049 }, () => ({ content: { parts: [{ text: 'x' }] } })) };
    expect(rejection(() => parseGeminiBatchEmbedRequest(many, M))).toEqual({
      param: 'requests',
      message: 'requests: at most 2048 requests are allowed, got 2049',
      status: 400,
    });
  });
});
