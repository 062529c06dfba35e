/**
 * Documents (PDFs) end to end: each official SDK sends a real two-page PDF, and each upstream
 * receives it in its own form — Anthropic `document` blocks (cache_control kept), Gemini
 * `inlineData`, OpenAI `file` parts. OpenAI-compatible servers refuse documents with a 400
 * in the client's dialect unless the channel says it accepts them; documents over the size
 * limit are refused with a 413 and files that are not PDFs with a 400, before any upstream
 * request. The sandbox reads the PDF and reports its pages and text.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Part } from '@google/genai';
import { countTokens } from 'gpt-tokenizer';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { buildTestPdf } from './helpers/build-test-pdf.js';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import type { AnthropicMessagesBody, ErrorBody, GeminiAnswer, GeminiContentBody, OpenAIChatBody } from './helpers/json-bodies.js';
import { gatewayClients } from './helpers/sdk-clients.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const LINES = [['Gengate test document', 'Page one has two lines.'], ['Page two closes it.']];
const PDF = buildTestPdf(LINES).toString('base64');
/** What a reader extracts: the lines in order, one per line. */
const PDF_TEXT = 'Gengate test document\nPage one has two lines.\nPage two closes it.';
const PROMPT = 'Summarise it.';
const MAX_DOCUMENT_BYTES = 16 * 1024;
const OVERSIZE_PDF = buildTestPdf([Array.from({ length: 400 }, (_, i) => `Filler line ${i} of a document over the limit.`)]).toString('base64');
const NOT_A_PDF = Buffer.from('PK\u0003\u0004 this is a zip archive, not a PDF').toString('base64');

let fakes: FakeUpstreams;
let compatUp: FakeOpenAIUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  [fakes, compatUp] = await Promise.all([startFakeUpstreams(), startFakeOpenAIUpstream({ apiKey: null })]);
  gw = await startGateway({
    limits: { maxDocumentBytes: MAX_DOCUMENT_BYTES },
    channels: [
      openaiUpChannel(fakes.openai, { models: ['textmodel-b-4o', 'textmodel-b-4o-mini'] }),
      {
        name: 'local-llm',
        provider: 'openai-compatible',
        baseUrl: compatUp.url,
        models: ['textmodel-b-3.5-turbo'],
        modelMap: { 'textmodel-b-3.5-turbo': 'llama-3.1-8b' },
      },
      {
        name: 'local-vlm',
        provider: 'openai-compatible',
        baseUrl: compatUp.url,
        models: ['textmodel-b-4-turbo'],
        modelMap: { 'textmodel-b-4-turbo': 'qwen-vl' },
        options: { acceptsDocuments: true },
      },
      anthropicUpChannel(fakes.anthropic, { models: ['textmodel-a-haiku-*', 'textmodel-a-sonnet-*'] }),
      geminiUpChannel(fakes.gemini, { models: ['textmodel-c-2.5-flash', 'textmodel-c-2.0-flash'] }),
      { name: 'sandbox', provider: 'sandbox', models: ['textmodel-a-opus-4-5-20251101', 'textmodel-b-4', 'textmodel-c-2.5-pro'] },
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await Promise.all([fakes.close(), compatUp.close()]);
});

const { openai, anthropic, gemini } = gatewayClients(() => gw);
/** The body of the last request `up` received, read as the dialect `T`. */
const lastBody = <T>(up: { requests: Array<{ body: unknown }> }) => up.requests.at(-1)!.body as T;

function askOpenAI(model: string, file: { filename?: string; file_data: string }) {
  return openai()
    .chat.completions.create({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file },
            { type: 'text', text: PROMPT },
          ],
        },
      ],
    })
    .withResponse();
}

function askAnthropic(model: string, document: Anthropic.DocumentBlockParam) {
  return anthropic()
    .messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: [document, { type: 'text', text: PROMPT }] }] })
    .withResponse();
}

function askGemini(model: string, part: Part) {
  return gemini().models.generateContent({ model, contents: [{ role: 'user', parts: [part, { text: PROMPT }] }] });
}

const pdfFile = { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` };
const pdfDocument: Anthropic.DocumentBlockParam = {
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: PDF },
  title: 'Quarterly report',
  cache_control: { type: 'ephemeral' },
};
const pdfInline: Part = { inlineData: { mimeType: 'application/pdf', data: PDF } };

/** What each upstream must receive for the PDF followed by the prompt. */
const OPENAI_FILE_PART = (filename: string) => ({ type: 'file', file: { filename, file_data: `data:application/pdf;base64,${PDF}` } });
const ANTHROPIC_DOCUMENT = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } };
const GEMINI_INLINE = { inlineData: { mimeType: 'application/pdf', data: PDF } };

describe('the test PDF', () => {
  it('is a real two-page PDF with a correct header', () => {
    const bytes = Buffer.from(PDF, 'base64');
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(bytes.subarray(-6).toString('latin1')).toBe('%%EOF\n');
    expect(PDF_TEXT).toBe(LINES.flat().join('\n'));
    expect(Buffer.from(OVERSIZE_PDF, 'base64').length).toBeGreaterThan(MAX_DOCUMENT_BYTES);
  });
});

describe('a PDF reaches every upstream in its own form', () => {
  it('OpenAI file part → OpenAI: passed through unchanged', async () => {
    const { data, response } = await askOpenAI('textmodel-b-4o', pdfFile);
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(data.choices[0].message.content).toBe(`You said: ${PROMPT}`);
    expect(lastBody<OpenAIChatBody>(fakes.openai).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', file: pdfFile },
          { type: 'text', text: PROMPT },
        ],
      },
    ]);
  });

  it('OpenAI file part → Anthropic: a base64 document block titled with the filename', async () => {
    const { data } = await askOpenAI('textmodel-a-sonnet-4-20250514', pdfFile);
    expect(data.choices[0].message.content).toBe(`Hello from the fake Anthropic upstream. You said: ${PROMPT}`);
    expect(lastBody<AnthropicMessagesBody>(fakes.anthropic).messages).toEqual([
      {
        role: 'user',
        content: [
          { ...ANTHROPIC_DOCUMENT, title: 'report.pdf' },
          { type: 'text', text: PROMPT },
        ],
      },
    ]);
  });

  it('OpenAI file part → Gemini: inline data', async () => {
    const { data } = await askOpenAI('textmodel-c-2.5-flash', pdfFile);
    expect(data.choices[0].message.content).toBe(`Fake Gemini says: ${PROMPT}`);
    expect(lastBody<GeminiContentBody>(fakes.gemini).contents).toEqual([{ role: 'user', parts: [GEMINI_INLINE, { text: PROMPT }] }]);
  });

  it('Anthropic document with cache_control → Anthropic: passed through unchanged, cache_control included', async () => {
    const { data, response } = await askAnthropic('textmodel-a-haiku-4-5-20251001', pdfDocument);
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(data.content[0]).toMatchObject({ type: 'text', text: `Hello from the fake Anthropic upstream. You said: ${PROMPT}` });
    const body = lastBody<AnthropicMessagesBody>(fakes.anthropic);
    expect(body.model).toBe('claude-haiku-4-5-20251001');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'Quarterly report',
            cache_control: { type: 'ephemeral' },
          },
          { type: 'text', text: PROMPT },
        ],
      },
    ]);
    expect(data.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('Anthropic document → OpenAI: a file part named after the title', async () => {
    const { data } = await askAnthropic('textmodel-b-4o-mini', pdfDocument);
    expect(data.content[0]).toMatchObject({ type: 'text', text: `You said: ${PROMPT}` });
    expect(lastBody<OpenAIChatBody>(fakes.openai).messages).toEqual([
      { role: 'user', content: [OPENAI_FILE_PART('Quarterly report.pdf'), { type: 'text', text: PROMPT }] },
    ]);
  });

  it('Anthropic document → Gemini: inline data', async () => {
    await askAnthropic('textmodel-c-2.0-flash', pdfDocument);
    expect(lastBody<GeminiContentBody>(fakes.gemini).contents).toEqual([{ role: 'user', parts: [GEMINI_INLINE, { text: PROMPT }] }]);
  });

  it('Gemini inlineData → Gemini: passed through unchanged', async () => {
    const result = await askGemini('textmodel-c-2.5-flash', pdfInline);
    expect(result.sdkHttpResponse?.headers?.['x-gengate-route']).toBe('passthrough');
    expect(result.text).toBe(`Fake Gemini says: ${PROMPT}`);
    expect(lastBody<GeminiContentBody>(fakes.gemini).contents).toEqual([{ role: 'user', parts: [GEMINI_INLINE, { text: PROMPT }] }]);
  });

  it('Gemini inlineData → OpenAI: a file part', async () => {
    const result = await askGemini('textmodel-b-4o', pdfInline);
    expect(result.text).toBe(`You said: ${PROMPT}`);
    expect(lastBody<OpenAIChatBody>(fakes.openai).messages).toEqual([
      { role: 'user', content: [OPENAI_FILE_PART('document.pdf'), { type: 'text', text: PROMPT }] },
    ]);
  });

  it('Gemini inlineData → Anthropic: a base64 document block', async () => {
    const result = await askGemini('textmodel-a-sonnet-4-20250514', pdfInline);
    expect(result.text).toBe(`Hello from the fake Anthropic upstream. You said: ${PROMPT}`);
    expect(lastBody<AnthropicMessagesBody>(fakes.anthropic).messages).toEqual([
      { role: 'user', content: [ANTHROPIC_DOCUMENT, { type: 'text', text: PROMPT }] },
    ]);
  });

  it("the spec's snake_case inline_data with ?key= reaches Anthropic as a document block", async () => {
    const res = await fetch(`${gw.url}/v1beta/models/textmodel-a-haiku-4-5-20251001:generateContent?key=${gw.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'application/pdf', data: PDF } }, { text: PROMPT }] }] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as GeminiAnswer).candidates[0].content.parts[0].text).toBe(`Hello from the fake Anthropic upstream. You said: ${PROMPT}`);
    expect(lastBody<AnthropicMessagesBody>(fakes.anthropic).messages).toEqual([
      { role: 'user', content: [ANTHROPIC_DOCUMENT, { type: 'text', text: PROMPT }] },
    ]);
  });

  it('a linked PDF reaches Anthropic as a URL document', async () => {
    await askGemini('textmodel-a-haiku-4-5-20251001', { fileData: { fileUri: 'https://example.com/report.pdf', mimeType: 'application/pdf' } });
    expect(lastBody<AnthropicMessagesBody>(fakes.anthropic).messages[0].content[0]).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://example.com/report.pdf' },
    });
  });
});

describe('plain-text documents become text', () => {
  const textDocument: Anthropic.DocumentBlockParam = {
    type: 'document',
    source: { type: 'text', media_type: 'text/plain', data: 'Meeting notes: ship on Friday.' },
  };

  it('for OpenAI and Gemini upstreams', async () => {
    await askAnthropic('textmodel-b-4o', textDocument);
    expect(lastBody<OpenAIChatBody>(fakes.openai).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Meeting notes: ship on Friday.' },
          { type: 'text', text: PROMPT },
        ],
      },
    ]);
    await askAnthropic('textmodel-c-2.5-flash', textDocument);
    expect(lastBody<GeminiContentBody>(fakes.gemini).contents).toEqual([
      { role: 'user', parts: [{ text: 'Meeting notes: ship on Friday.' }, { text: PROMPT }] },
    ]);
  });

  it('for an OpenAI-compatible server, which takes text though not PDFs', async () => {
    await askAnthropic('textmodel-b-3.5-turbo', textDocument);
    expect(lastBody<OpenAIChatBody>(compatUp).model).toBe('llama-3.1-8b');
    expect(lastBody<OpenAIChatBody>(compatUp).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Meeting notes: ship on Friday.' },
          { type: 'text', text: PROMPT },
        ],
      },
    ]);
  });
});

/**
 * What the SDKs throw for an error status: OpenAI and Anthropic carry the parsed body as
 * `error`, the Gemini SDK carries it as the JSON of `message`.
 */
interface SdkError {
  name: string;
  message: string;
  status: number;
  error: Record<string, unknown>;
}

/** Runs `send`, expecting it to fail, and returns what was thrown. */
async function failure(send: () => Promise<unknown>): Promise<SdkError> {
  try {
    await send();
  } catch (error) {
    return error as SdkError;
  }
  throw new Error('expected the request to fail');
}

/** The Gemini SDK carries the error body as the JSON of its message. */
function geminiBody(error: SdkError): ErrorBody {
  expect(error.name).toBe('ApiError');
  return JSON.parse(error.message) as ErrorBody;
}

describe('an OpenAI-compatible server refuses PDFs with a 400 in the client dialect', () => {
  const refusal = (param: string) =>
    `${param}: this model is served by an OpenAI-compatible server that does not accept documents (PDF files); send the document's text instead`;

  it('OpenAI client (pass-through)', async () => {
    const before = compatUp.requests.length;
    const error = await failure(() => askOpenAI('textmodel-b-3.5-turbo', pdfFile));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.error).toEqual({ message: refusal('messages[0].content[0]'), type: 'invalid_request_error', param: 'messages[0].content[0]', code: null });
    expect(compatUp.requests.length).toBe(before);
  });

  it('Anthropic client', async () => {
    const before = compatUp.requests.length;
    const error = await failure(() => askAnthropic('textmodel-b-3.5-turbo', pdfDocument));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: refusal('messages[0].content[0]') } });
    expect(compatUp.requests.length).toBe(before);
  });

  it('Gemini client', async () => {
    const before = compatUp.requests.length;
    const error = await failure(() => askGemini('textmodel-b-3.5-turbo', pdfInline));
    expect(error.status).toBe(400);
    expect(geminiBody(error)).toEqual({
      error: {
        code: 400,
        message: refusal('messages[0].content[0]'),
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'messages[0].content[0]', description: refusal('messages[0].content[0]') }],
          },
        ],
      },
    });
    expect(compatUp.requests.length).toBe(before);
  });

  it('unless the channel says acceptsDocuments: true', async () => {
    await askAnthropic('textmodel-b-4-turbo', pdfDocument);
    expect(lastBody<OpenAIChatBody>(compatUp).model).toBe('qwen-vl');
    expect(lastBody<OpenAIChatBody>(compatUp).messages).toEqual([
      { role: 'user', content: [OPENAI_FILE_PART('Quarterly report.pdf'), { type: 'text', text: PROMPT }] },
    ]);
    const { data } = await askOpenAI('textmodel-b-4-turbo', pdfFile);
    expect(data.choices[0].message.content).toBe(`You said: ${PROMPT}`);
    expect(lastBody<OpenAIChatBody>(compatUp).messages[0].content[0]).toEqual({ type: 'file', file: pdfFile });
  });
});

describe('a linked document to an upstream that cannot fetch it is a 400', () => {
  it('Anthropic URL document → OpenAI', async () => {
    const before = fakes.openai.requests.length;
    const error = await failure(() => askAnthropic('textmodel-b-4o', { type: 'document', source: { type: 'url', url: 'https://example.com/report.pdf' } }));
    expect(error.status).toBe(400);
    expect(error.error.error).toEqual({
      type: 'invalid_request_error',
      message: 'messages[0].content[0]: documents given by URL cannot be sent to an OpenAI-dialect upstream; send them inline as base64',
    });
    expect(fakes.openai.requests.length).toBe(before);
  });
});

describe('size limit and PDF check, before any upstream request', () => {
  const upstreamRequests = () => fakes.openai.requests.length + compatUp.requests.length + fakes.anthropic.requests.length + fakes.gemini.requests.length;
  const bytes = Buffer.from(OVERSIZE_PDF, 'base64').length;
  // The limit names the field as the client wrote it, in its own dialect.
  const tooLargeAt = (param: string) => `${param}: the document is ${bytes} bytes, more than the limit of ${MAX_DOCUMENT_BYTES} bytes per document`;
  const openaiParam = 'messages[0].content[0].file.file_data';
  const notPdf = 'messages[0].content[0]: the document is declared as application/pdf but is not a PDF (it does not start with %PDF-)';

  it('an oversize PDF is a 413 in each dialect, pass-through included', async () => {
    const before = upstreamRequests();
    const fromOpenAI = await failure(() => askOpenAI('textmodel-b-4o', { filename: 'big.pdf', file_data: `data:application/pdf;base64,${OVERSIZE_PDF}` }));
    expect(fromOpenAI.status).toBe(413);
    expect(fromOpenAI.error).toEqual({ message: tooLargeAt(openaiParam), type: 'invalid_request_error', param: openaiParam, code: 'document_too_large' });

    const fromAnthropic = await failure(() =>
      askAnthropic('textmodel-a-haiku-4-5-20251001', { ...pdfDocument, source: { type: 'base64', media_type: 'application/pdf', data: OVERSIZE_PDF } }),
    );
    expect(fromAnthropic.status).toBe(413);
    expect(fromAnthropic.error).toMatchObject({
      type: 'error',
      error: { type: 'request_too_large', message: tooLargeAt('messages[0].content[0].source.data') },
    });

    const fromGemini = await failure(() => askGemini('textmodel-c-2.5-flash', { inlineData: { mimeType: 'application/pdf', data: OVERSIZE_PDF } }));
    expect(fromGemini.status).toBe(413);
    expect(geminiBody(fromGemini)).toEqual({ error: { code: 413, message: tooLargeAt('contents[0].parts[0].inlineData.data'), status: 'INVALID_ARGUMENT' } });

    // The sandbox is not called either: it would have answered 200.
    const toSandbox = await failure(() => askOpenAI('textmodel-b-4', { filename: 'big.pdf', file_data: `data:application/pdf;base64,${OVERSIZE_PDF}` }));
    expect(toSandbox.status).toBe(413);
    expect(upstreamRequests()).toBe(before);
  });

  it('a document exactly at the limit is accepted', async () => {
    // A PDF whose decoded size is exactly the limit: the test PDF padded with a comment line.
    const base = buildTestPdf(LINES);
    const padding = MAX_DOCUMENT_BYTES - base.length - 2;
    const exact = Buffer.concat([base, Buffer.from(`%${'x'.repeat(padding)}\n`)]);
    expect(exact.length).toBe(MAX_DOCUMENT_BYTES);
    const { data } = await askOpenAI('textmodel-b-4o', { filename: 'exact.pdf', file_data: `data:application/pdf;base64,${exact.toString('base64')}` });
    expect(data.choices[0].message.content).toBe(`You said: ${PROMPT}`);
  });

  it('a file declared as PDF that is not one is a 400 in each dialect', async () => {
    const before = upstreamRequests();
    const fromOpenAI = await failure(() =>
      askOpenAI('textmodel-a-sonnet-4-20250514', { filename: 'a.pdf', file_data: `data:application/pdf;base64,${NOT_A_PDF}` }),
    );
    expect(fromOpenAI.status).toBe(400);
    expect(fromOpenAI.error).toEqual({ message: notPdf, type: 'invalid_request_error', param: 'messages[0].content[0]', code: null });

    const fromAnthropic = await failure(() =>
      askAnthropic('textmodel-c-2.5-flash', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: NOT_A_PDF } }),
    );
    expect(fromAnthropic.status).toBe(400);
    expect(fromAnthropic.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: notPdf } });

    const fromGemini = await failure(() => askGemini('textmodel-b-4o', { inlineData: { mimeType: 'application/pdf', data: NOT_A_PDF } }));
    expect(fromGemini.status).toBe(400);
    expect(geminiBody(fromGemini).error).toMatchObject({ code: 400, message: notPdf, status: 'INVALID_ARGUMENT' });
    expect(upstreamRequests()).toBe(before);
  });

  it('invalid base64 in a PDF is a 400 before a translating channel is called', async () => {
    // A same-dialect upstream judges the content of what it is relayed; a translation reads it first.
    const before = upstreamRequests();
    const res = await fetch(`${gw.url}/v1beta/models/textmodel-b-4o:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': gw.key },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: `${PDF.slice(0, 40)}***not base64***` } }] }],
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: "messages[0].content[0]: the document's data is not valid base64",
    });
    expect(upstreamRequests()).toBe(before);
  });
});

describe('the sandbox reads the PDF', () => {
  const received = `It received 1 PDF document: 2 pages, ${PDF_TEXT.length} characters of text.`;
  const inputTokens = countTokens(`${PDF_TEXT}\n${PROMPT}`);

  it('has a known amount of text to find', () => {
    expect(PDF_TEXT.length).toBe(65);
  });

  it('OpenAI client', async () => {
    const { data, response } = await askOpenAI('textmodel-b-4', pdfFile);
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    const text = data.choices[0].message.content!;
    expect(text.startsWith('[gengate sandbox — simulated response, no model was called] Simulated answer for model textmodel-b-4. ')).toBe(true);
    expect(text).toContain(received);
    expect(data.usage?.prompt_tokens).toBe(inputTokens);
  });

  it('Anthropic client', async () => {
    const { data } = await askAnthropic('textmodel-a-opus-4-5-20251101', pdfDocument);
    const block = data.content[0];
    expect(block.type).toBe('text');
    expect(block.type === 'text' && block.text).toContain(`Simulated answer for model textmodel-a-opus-4-5-20251101. ${received}`);
    expect(data.usage.input_tokens).toBe(inputTokens);
  });

  it('Gemini client', async () => {
    const result = await askGemini('textmodel-c-2.5-pro', pdfInline);
    expect(result.text).toContain(`Simulated answer for model textmodel-c-2.5-pro. ${received}`);
    expect(result.usageMetadata?.promptTokenCount).toBe(inputTokens);
  });

  it('says when it cannot read a PDF, without failing', async () => {
    const broken = Buffer.from(PDF, 'base64').subarray(0, 200).toString('base64');
    const { data } = await askOpenAI('textmodel-b-4', { filename: 'broken.pdf', file_data: `data:application/pdf;base64,${broken}` });
    expect(data.choices[0].message.content).toContain('It received 1 PDF document it could not read (Invalid PDF structure).');
  });
});
