/**
 * Real-world structured-output schemas — what client libraries produce from zod 4 — each
 * answered by the sandbox's chat on many prompts, and every answer checked twice,
 * independently of the generator: by ajv against the JSON Schema and by zod itself.
 */
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatRequest, ChatResponse } from '../src/core/chat.js';
import type { Attempt } from '../src/providers/types.js';
import { createSandboxProvider } from '../src/sandbox/index.js';
import { createSchemaValidator } from './helpers/json-schema-validator.js';

const PROMPTS = 25;
/** Schemas the Anthropic SDK's transform refuses to send (it throws). */
const ANTHROPIC_REFUSES = ['string formats', 'arrays: bounds, exact length, tuples'];
/** Schemas its transform makes contradictory (an enum-keyed record: required keys, no properties, no additional ones). */
const ANTHROPIC_CONTRADICTS = ['records: string keys and enum keys'];

interface TreeNode {
  type: 'div' | 'button' | 'header' | 'section' | 'field' | 'form';
  label: string;
  children: TreeNode[];
  attributes: Array<{ name: string; value: string }>;
}
const UiNode: z.ZodType<TreeNode> = z.object({
  type: z.enum(['div', 'button', 'header', 'section', 'field', 'form']),
  label: z.string(),
  get children() {
    return z.array(UiNode);
  },
  attributes: z.array(z.object({ name: z.string(), value: z.string() })),
});

interface ListNode {
  value: number;
  next: ListNode | null;
}
const LinkedList: z.ZodType<ListNode> = z.object({ value: z.number(), next: z.lazy(() => LinkedList).nullable() });

interface CommentNode {
  id: string;
  author: string;
  text: string;
  replies: CommentNode[];
}
const Comment: z.ZodType<CommentNode> = z.object({
  id: z.uuid(),
  author: z.string().min(1),
  text: z.string().max(280),
  get replies() {
    return z.array(Comment).max(3);
  },
});

const Money = z.object({ amount: z.number().nonnegative().multipleOf(0.01), currency: z.enum(['EUR', 'USD', 'GBP', 'NOK']) });

const CORPUS: Record<string, z.ZodType> = {
  'calendar event extraction': z.object({ name: z.string(), date: z.iso.date(), participants: z.array(z.string()) }),
  'math reasoning steps': z.object({
    steps: z.array(z.object({ explanation: z.string(), output: z.string() })).min(1),
    final_answer: z.string(),
  }),
  'recursive UI tree (getter recursion)': UiNode,
  'linked list (z.lazy, nullable)': LinkedList,
  'thread with shared recursive $defs': z.object({
    post: z.object({ title: z.string().min(3).max(80), comments: z.array(Comment) }),
    pinned: Comment.nullable(),
  }),
  'product catalogue: nested objects, arrays of objects, optional and nullable': z.object({
    products: z
      .array(
        z.object({
          sku: z.string().regex(/^[A-Z]{3}-\d{4}$/),
          title: z.string().min(1).max(120),
          price: Money,
          discount: Money.nullable(),
          tags: z.array(z.string().min(1)).max(5),
          dimensions: z.object({ width: z.number().positive(), height: z.number().positive(), unit: z.enum(['cm', 'in']) }).optional(),
          rating: z.number().min(0).max(5).nullish(),
          in_stock: z.boolean(),
        }),
      )
      .min(1)
      .max(4),
    next_page: z.string().nullable(),
  }),
  'discriminated union of events': z.object({
    events: z.array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('click'), x: z.int().min(0), y: z.int().min(0) }),
        z.object({ type: z.literal('keypress'), key: z.string().length(1), modifiers: z.array(z.enum(['shift', 'ctrl', 'alt', 'meta'])) }),
        z.object({ type: z.literal('scroll'), delta: z.number() }),
      ]),
    ),
  }),
  'plain union of primitives and objects': z.object({
    value: z.union([z.string(), z.number(), z.boolean(), z.object({ ref: z.string() })]),
    maybe: z.union([z.literal('none'), z.object({ id: z.int() })]),
  }),
  'records: string keys and enum keys': z.object({
    scores: z.record(z.string(), z.number().min(0).max(100)),
    colours: z.record(z.enum(['red', 'green', 'blue']), z.int().min(0).max(255)),
    partial: z.partialRecord(z.enum(['mon', 'tue', 'wed']), z.boolean()),
  }),
  'string formats': z.object({
    email: z.email(),
    id: z.uuid(),
    v4: z.uuidv4(),
    guid: z.guid(),
    created: z.iso.datetime(),
    created_with_offset: z.iso.datetime({ offset: true }),
    day: z.iso.date(),
    at: z.iso.time(),
    took: z.iso.duration(),
    homepage: z.url(),
    ip: z.ipv4(),
    ip6: z.ipv6(),
    cidr: z.cidrv4(),
    cuid: z.cuid(),
    cuid2: z.cuid2(),
    ulid: z.ulid(),
    nanoid: z.nanoid(),
    emoji: z.emoji(),
    b64: z.base64(),
    b64url: z.base64url(),
    phone: z.e164(),
    token: z.jwt(),
    hex: z.hex(),
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    path: z.string().startsWith('/api/').endsWith('.json'),
    lower: z.string().lowercase().min(3),
  }),
  'numbers: ints, bounds, exclusive bounds, multiples': z.object({
    age: z.int().min(0).max(130),
    percent: z.number().min(0).max(100),
    positive: z.number().positive(),
    negative: z.int().negative(),
    step: z.number().multipleOf(0.5).gt(1).lt(10),
    int32: z.int32(),
    big_range: z.number().min(1e12).max(1e15),
  }),
  'arrays: bounds, exact length, tuples': z.object({
    one_to_three: z.array(z.string()).min(1).max(3),
    exactly_two: z.array(z.int()).length(2),
    non_empty: z.array(z.boolean()).nonempty(),
    pair: z.tuple([z.string(), z.number()]),
    head_and_rest: z.tuple([z.string()], z.int()),
    matrix: z.array(z.array(z.number()).length(3)).max(3),
  }),
  'enums, literals, defaults': z.object({
    status: z.enum(['draft', 'published', 'archived']),
    version: z.literal(2),
    kind: z.literal(['a', 'b', 3]),
    mode: z.string().default('fast'),
    level: z.enum(['low', 'high']).default('low'),
  }),
  'strict, loose and catchall objects, intersections': z.object({
    strict: z.strictObject({ a: z.string() }),
    loose: z.looseObject({ b: z.number() }),
    extra: z.object({ c: z.boolean() }).catchall(z.string()),
    both: z.intersection(z.object({ left: z.string() }), z.object({ right: z.number() })),
  }),
  'template literal': z.object({ handle: z.templateLiteral(['user-', z.int()]) }),
  'root array of objects': z
    .array(z.object({ q: z.string(), a: z.string() }))
    .min(2)
    .max(5),
  'described fields (meta ignored by validation)': z
    .object({
      summary: z.string().describe('One sentence'),
      sentiment: z.enum(['positive', 'neutral', 'negative']).describe('Overall tone'),
      keywords: z.array(z.string()).max(5).describe('Up to five keywords'),
    })
    .describe('Review analysis'),
};

const chat = createSandboxProvider({ tokensPerSecond: 0, firstTokenDelayMs: 0, failureRate: 0 }).chat!;
const attempt: Attempt = {
  channel: { name: 'sandbox-corpus', provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 10_000, options: {} },
  upstreamModel: 'sandbox-model',
  signal: new AbortController().signal,
  requestId: 'req-corpus',
};

function request(prompt: string, name: string, schema: Record<string, unknown>): ChatRequest {
  return {
    model: 'textmodel-b-4o',
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    responseFormat: { type: 'json_schema', name, schema, strict: true },
    stream: false,
  };
}

function textOf(response: ChatResponse): string {
  expect(response.content).toHaveLength(1);
  const part = response.content[0];
  if (part.type !== 'text') throw new Error(`expected text, got ${part.type}`);
  return part.text;
}

describe('sandbox structured answers on real-world zod 4 schemas', () => {
  const ajv = createSchemaValidator();

  for (const [name, zodSchema] of Object.entries(CORPUS)) {
    it(name, async () => {
      const schema = z.toJSONSchema(zodSchema) as Record<string, unknown>;
      const validate = ajv.compile(schema);
      const answers = new Set<string>();
      for (let i = 0; i < PROMPTS; i++) {
        const response = await chat.chat(request(`Answer number ${i} about ${name}`, 'answer', schema), attempt);
        expect(response.finishReason).toBe('stop');
        const text = textOf(response);
        const value: unknown = JSON.parse(text);
        expect(validate(value), `${text}\n${ajv.errorsText(validate.errors)}`).toBe(true);
        const parsed = zodSchema.safeParse(value);
        expect(parsed.success, `${text}\n${parsed.error?.message}`).toBe(true);
        answers.add(text);
      }
      // Answers vary with the prompt (the schema leaves room for it in every case here).
      expect(answers.size).toBeGreaterThan(1);
    });
  }
});

describe('sandbox structured answers on the same schemas as the Anthropic SDK sends them (zodOutputFormat)', () => {
  // Its transform moves bounds, lengths and patterns into descriptions; the answer is then checked by zod.
  for (const [name, zodSchema] of Object.entries(CORPUS)) {
    it(name, async () => {
      let schema: Record<string, unknown>;
      try {
        schema = zodOutputFormat(zodSchema).schema;
      } catch {
        return expect(ANTHROPIC_REFUSES).toContain(name);
      }
      expect(ANTHROPIC_REFUSES).not.toContain(name);
      if (ANTHROPIC_CONTRADICTS.includes(name)) {
        const error = await chat.chat(request(`About ${name}`, 'answer', schema), attempt).catch((e: unknown) => e);
        expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
        return expect((error as Error).message).toContain('additionalProperties is false: no object fits');
      }
      for (let i = 0; i < PROMPTS; i++) {
        const text = textOf(await chat.chat(request(`Answer number ${i} about ${name}`, 'answer', schema), attempt));
        const parsed = zodSchema.safeParse(JSON.parse(text));
        expect(parsed.success, `${text}\n${parsed.error?.message}`).toBe(true);
      }
    });
  }
});
