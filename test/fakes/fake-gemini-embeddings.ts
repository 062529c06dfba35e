/**
 * `:embedContent` and `:batchEmbedContents` of the fake Gemini API, after Google's published
 * API: proto3 JSON (camelCase or snake_case, unknown names refused), text parts embedded as
 * one vector per content, the eight task types, `title` only with RETRIEVAL_DOCUMENT,
 * `outputDimensionality` shortening the vector, every batch request naming the batch's model,
 * and at most 100 requests per batch. Vectors come from
 * `fakeEmbeddingValues(fakeGeminiEmbeddingSeed(…))`, so tests can tell whether the task type
 * and title arrived. Gemini reports no token usage for embeddings; neither does the fake.
 */
import { fakeEmbeddingValues } from './fake-embedding-values.js';

type Json = Record<string, unknown>;

export interface FakeAnswer {
  status: number;
  body: unknown;
}

/** Native vector length of each model the fake serves. */
export const FAKE_GEMINI_EMBEDDING_MODELS: Record<string, number> = {
  'text-embedding-004': 768,
  'gemini-embedding-001': 3072,
  'embedding-001': 768,
};

export const FAKE_GEMINI_MAX_BATCH = 100;

const TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
];

const REQUEST_FIELDS = new Set(['model', 'content', 'taskType', 'title', 'outputDimensionality']);
const CONTENT_FIELDS = new Set(['role', 'parts']);
const PART_FIELDS = new Set(['text', 'inlineData', 'fileData', 'thought', 'thoughtSignature']);

class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** The text a fake vector is seeded from: model, task type, title and the content's text. */
export function fakeGeminiEmbeddingSeed(model: string, text: string, taskType?: string, title?: string): string {
  return `${model}|${taskType ?? ''}|${title ?? ''}|${text}`;
}

export function answerGeminiEmbedding(action: 'embedContent' | 'batchEmbedContents', model: string, text: string): FakeAnswer {
  try {
    const dimensions = FAKE_GEMINI_EMBEDDING_MODELS[model];
    if (dimensions === undefined) {
      throw new Refusal(
        404,
        'NOT_FOUND',
        `models/${model} is not found for API version v1beta, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.`,
      );
    }
    const body = parseObject(text);
    if (action === 'embedContent') {
      const values = embedOne(normalize(body, REQUEST_FIELDS, ''), model, dimensions, 'EmbedContentRequest', '', false);
      return { status: 200, body: { embedding: { values } } };
    }
    checkNames(body, new Set(['requests']), '');
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0) throw invalid('* BatchEmbedContentsRequest.requests: requests is not specified\n');
    if (requests.length > FAKE_GEMINI_MAX_BATCH) {
      throw invalid(`* BatchEmbedContentsRequest.requests: at most ${FAKE_GEMINI_MAX_BATCH} requests can be in one batch\n`);
    }
    const embeddings = requests.map((request, i) => {
      const at = `requests[${i}]`;
      const values = embedOne(normalize(request, REQUEST_FIELDS, at), model, dimensions, 'BatchEmbedContentsRequest', `${at}.`, true);
      return { values };
    });
    return { status: 200, body: { embeddings } };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { status: error.code, body: { error: { code: error.code, message: error.message, status: error.status } } };
  }
}

function invalid(message: string): Refusal {
  return new Refusal(400, 'INVALID_ARGUMENT', message);
}

function parseObject(text: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(`Invalid JSON payload received. Unexpected token.\n${text.slice(0, 40)}\n^`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('Invalid JSON payload received. Expected an object.');
  return parsed as Json;
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function checkNames(value: Json, known: Set<string>, at: string): void {
  for (const key of Object.keys(value)) {
    if (!known.has(camel(key))) {
      const where = at.length > 0 ? ` at '${at}'` : '';
      throw invalid(`Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`);
    }
  }
}

/** A camelCase copy of an embed request, refusing names the API does not have. */
function normalize(value: unknown, known: Set<string>, at: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`Invalid value at '${at}': expected an object.`);
  checkNames(value as Json, known, at);
  const out: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) out[camel(key)] = inner;
  return out;
}

function embedOne(request: Json, model: string, dimensions: number, message: string, at: string, inBatch: boolean): number[] {
  if (inBatch) {
    if (typeof request.model !== 'string') throw invalid(`* ${message}.${at}model: model is not specified\n`);
    if (request.model !== `models/${model}`) {
      throw invalid(`* ${message}.${at}model: the model of each request must be the batch's model (models/${model}), got ${request.model}\n`);
    }
  }
  const text = contentText(request.content, `${at}content`, message);
  const taskType = request.taskType;
  if (taskType !== undefined && (typeof taskType !== 'string' || !TASK_TYPES.includes(taskType))) {
    throw invalid(`Invalid value at '${at}task_type' (type.googleapis.com/google.ai.generativelanguage.v1beta.TaskType), ${JSON.stringify(taskType)}`);
  }
  const title = request.title;
  if (title !== undefined && taskType !== 'RETRIEVAL_DOCUMENT') {
    throw invalid(`* ${message}.${at}title: a title can only be given with task_type RETRIEVAL_DOCUMENT\n`);
  }
  let length = dimensions;
  const wanted = request.outputDimensionality;
  if (wanted !== undefined) {
    if (typeof wanted !== 'number' || !Number.isInteger(wanted) || wanted < 1 || wanted > dimensions) {
      throw invalid(`* ${message}.${at}output_dimensionality: must be between 1 and ${dimensions}\n`);
    }
    length = wanted;
  }
  const seed = fakeGeminiEmbeddingSeed(model, text, taskType as string | undefined, title as string | undefined);
  return fakeEmbeddingValues(seed, length);
}

function contentText(value: unknown, at: string, message: string): string {
  if (value === undefined) throw invalid(`* ${message}.${at}: content is not specified\n`);
  const content = normalize(value, CONTENT_FIELDS, at);
  const parts = content.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw invalid(`* ${message}.${at}.parts: contents.parts must not be empty.\n`);
  return parts
    .map((part, i) => {
      const normalized = normalize(part, PART_FIELDS, `${at}.parts[${i}]`);
      if (typeof normalized.text !== 'string') throw invalid(`* ${message}.${at}.parts[${i}]: only text can be embedded by this model\n`);
      return normalized.text;
    })
    .join('\n');
}
