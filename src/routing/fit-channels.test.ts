import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../core/chat.js';
import type { CatalogEntry } from '../config/types.js';
import { Catalog } from './catalog.js';
import { fitChannels } from './fit-channels.js';
import { chatRequestNeeds, inputTokensOfBody, type RequestNeeds, type RequestNeedsSource } from './request-needs.js';
import type { RuntimeChannel } from './runtime-channel.js';

const ALL: CatalogEntry['capabilities'] = ['tools', 'vision', 'pdf', 'json_schema', 'reasoning'];

/** A channel that sends the public model `m` upstream as `upstream`. */
function channel(name: string, upstream: string): RuntimeChannel {
  return { name, upstreamModel: () => upstream } as unknown as RuntimeChannel;
}

function catalogOf(...entries: Array<Partial<CatalogEntry> & { id: string }>): Catalog {
  return new Catalog(entries.map((entry) => ({ operations: ['chat'], ...entry }) as CatalogEntry));
}

/** A needs source that counts its reads (a read is the pass-through request's canonical parse). */
function source(request: ChatRequest, inputTokensAtMost?: number): RequestNeedsSource & { reads: number } {
  const counted = {
    reads: 0,
    inputTokensAtMost,
    read(): RequestNeeds {
      counted.reads++;
      return chatRequestNeeds(request);
    },
  };
  return counted;
}

const text = (body: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: body }] }],
  ...extra,
});

const names = (fit: { fit: readonly RuntimeChannel[] }) => fit.fit.map((c) => c.name);

describe('fitting channels without reading the request', () => {
  it('does not read a request whose body bound fits every declared context, when every candidate declares every capability', async () => {
    const catalog = catalogOf({ id: 'big', capabilities: ALL, inputTokenLimit: 100_000 }, { id: 'small', capabilities: ALL, inputTokenLimit: 4_000 });
    const needs = source(text('hello'), inputTokensOfBody(200));
    const fit = await fitChannels([channel('a', 'big'), channel('b', 'small')], 'm', catalog, needs);
    expect(names(fit)).toEqual(['a', 'b']);
    expect(needs.reads).toBe(0);
  });

  it('reads a request whose body bound exceeds the smallest context, and leaves that channel out when the count does too', async () => {
    const catalog = catalogOf({ id: 'big', capabilities: ALL, inputTokenLimit: 100_000 }, { id: 'small', capabilities: ALL, inputTokenLimit: 1_000 });
    const long = 'lorem ipsum dolor sit amet '.repeat(400);
    const needs = source(text(long), inputTokensOfBody(long.length + 60));
    const fit = await fitChannels([channel('a', 'small'), channel('b', 'big')], 'm', catalog, needs);
    expect(needs.reads).toBe(1);
    expect(names(fit)).toEqual(['b']);
    expect(fit.missing.get('a')?.[0]).toMatch(/^a context of \d+ input tokens \(it takes 1000\)$/);
  });

  it('reads the request when no body bound is known and a context is declared (the bound cannot decide)', async () => {
    const catalog = catalogOf({ id: 'big', capabilities: ALL, inputTokenLimit: 100_000 });
    const needs = source(text('hello'));
    expect(names(await fitChannels([channel('a', 'big')], 'm', catalog, needs))).toEqual(['a']);
    expect(needs.reads).toBe(1);
  });

  it('reads a request when a candidate lacks a capability, and leaves it out when the request needs it', async () => {
    const catalog = catalogOf({ id: 'no-tools', capabilities: ['vision'] }, { id: 'full', capabilities: ALL });
    const candidates = [channel('a', 'no-tools'), channel('b', 'full')];
    const plain = source(text('hi'), inputTokensOfBody(100));
    expect(names(await fitChannels(candidates, 'm', catalog, plain))).toEqual(['a', 'b']);
    expect(plain.reads).toBe(1);
    const withTools = source(text('hi', { tools: [{ name: 'f', parameters: { type: 'object' } }] }), inputTokensOfBody(200));
    const fit = await fitChannels(candidates, 'm', catalog, withTools);
    expect(names(fit)).toEqual(['b']);
    expect(fit.missing.get('a')).toEqual(['tools']);
  });

  it('does not read a request when no candidate declares anything, or models are outside the catalog', async () => {
    const catalog = catalogOf({ id: 'plain' });
    const needs = source(text('hi', { tools: [{ name: 'f', parameters: { type: 'object' } }] }));
    expect(names(await fitChannels([channel('a', 'plain'), channel('b', 'elsewhere')], 'm', catalog, needs))).toEqual(['a', 'b']);
    expect(needs.reads).toBe(0);
  });

  it('bounds a body of media parts: the shortest image or document part costs no more tokens than the bound of its bytes', () => {
    // Gemini's shortest link to a PDF is 29 bytes of JSON and counts as a document (258 tokens).
    const part = '{"fileData":{"fileUri":"a"}}';
    expect(inputTokensOfBody(part.length)).toBeGreaterThanOrEqual(258);
    // Text counts at most a token per byte, whatever the bound's factor.
    expect(inputTokensOfBody(1)).toBeGreaterThanOrEqual(1);
  });
});

describe('thinking asked of channels that may or may not reason', () => {
  const catalog = catalogOf(
    { id: 'thinker', capabilities: ALL, inputTokenLimit: 100_000 },
    { id: 'plain', capabilities: ['tools', 'vision', 'pdf', 'json_schema'], inputTokenLimit: 100_000 },
  );

  it('sends a request with a thinking budget only to the channels whose model declares reasoning', async () => {
    const needs = source(text('think', { thinkingBudget: 1024 }), inputTokensOfBody(100));
    expect(names(await fitChannels([channel('a', 'plain'), channel('b', 'thinker')], 'm', catalog, needs))).toEqual(['b']);
    expect(needs.reads).toBe(1);
  });

  it('keeps every channel for a request without thinking, or with a budget of 0 (thinking off)', async () => {
    const candidates = [channel('a', 'plain'), channel('b', 'thinker')];
    expect(names(await fitChannels(candidates, 'm', catalog, source(text('hi'), inputTokensOfBody(100))))).toEqual(['a', 'b']);
    expect(names(await fitChannels(candidates, 'm', catalog, source(text('hi', { thinkingBudget: 0 }), inputTokensOfBody(100))))).toEqual(['a', 'b']);
  });

  it('counts a model that declares nothing as one that may reason', async () => {
    const open = catalogOf({ id: 'unknown' }, { id: 'plain', capabilities: ['tools', 'vision', 'pdf', 'json_schema'] });
    const needs = source(text('think', { thinkingBudget: 2048 }));
    expect(names(await fitChannels([channel('a', 'plain'), channel('b', 'unknown')], 'm', open, needs))).toEqual(['b']);
  });

  it('does not read the request, nor refuse it, when no candidate reasons: the providers drop the budget', async () => {
    const needs = source(text('think', { thinkingBudget: 1024 }), inputTokensOfBody(100));
    const fit = await fitChannels([channel('a', 'plain'), channel('c', 'plain')], 'm', catalog, needs);
    expect(names(fit)).toEqual(['a', 'c']);
    expect(needs.reads).toBe(0);
  });

  it('does not read the request when every candidate reasons and declares everything', async () => {
    const needs = source(text('think', { thinkingBudget: 1024 }), inputTokensOfBody(100));
    expect(names(await fitChannels([channel('a', 'thinker'), channel('b', 'thinker')], 'm', catalog, needs))).toEqual(['a', 'b']);
    expect(needs.reads).toBe(0);
  });
});
