import { describe, expect, it } from 'vitest';
import { errorFamilies } from '../http/error-family.js';
import { FALLBACK_ERROR_FAMILY, SURFACE_ERROR_FAMILIES, SURFACES, TASK_FAMILIES } from './registry.js';

describe('the surface registry', () => {
  it('names every surface once', () => {
    const names = SURFACES.map((surface) => surface.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('responses');
  });

  it('lists the task families in registry order, each with its id look', () => {
    expect([...TASK_FAMILIES.keys()]).toEqual(['imgtask', 'imagegen1', 'videogen1', 'videogen2', 'video-generations', 'videogen3', 'openai-videos']);
    const id = (surface: string) => TASK_FAMILIES.get(surface)?.newId() ?? '';
    expect(id('imgtask')).toMatch(/^[1-9]\d{18}$/);
    expect(id('imagegen1')).toMatch(/^[a-z2-7]{26}$/);
    expect(id('openai-videos')).toMatch(/^video_[a-z2-7]{26}$/);
    for (const surface of ['videogen1', 'videogen2', 'video-generations', 'videogen3']) expect(id(surface)).toMatch(/^task_[a-z2-7]{26}$/);
  });
});

describe('the error family of a path', () => {
  const errorFamilyOf = errorFamilies(SURFACE_ERROR_FAMILIES, FALLBACK_ERROR_FAMILY).familyOf;

  it('goes by path', () => {
    expect(errorFamilyOf('/v1beta/models/gemini-2.5-flash:generateContent?alt=sse')).toBe('gemini');
    expect(errorFamilyOf('/v1beta')).toBe('gemini');
    expect(errorFamilyOf('/v1/models/gemini-2.5-flash:streamGenerateContent')).toBe('gemini');
    expect(errorFamilyOf('/v1/models/gemini-2.5-flash%3AcountTokens')).toBe('gemini');
    expect(errorFamilyOf('/v1/messages')).toBe('anthropic');
    expect(errorFamilyOf('/v1/messages/count_tokens')).toBe('anthropic');
    expect(errorFamilyOf('/imagegen2/remix')).toBe('imagegen2');
    expect(errorFamilyOf('/imagegen1/task/abc/cancel?x=1')).toBe('imagegen1');
    expect(errorFamilyOf('/imagegen1')).toBe('imagegen1');
    expect(errorFamilyOf('/imagegen10/create')).toBe('openai');
    expect(errorFamilyOf('/videogen1/video/task_x?y=1')).toBe('videogen1');
    expect(errorFamilyOf('/videogen1')).toBe('videogen1');
    expect(errorFamilyOf('/videogen3/task/task_x')).toBe('videogen3');
    expect(errorFamilyOf('/videogen3/nothing')).toBe('videogen3');
    expect(errorFamilyOf('/videogen2/video')).toBe('openai');
    expect(errorFamilyOf('/v1/video/generations/task_x')).toBe('openai');
    expect(errorFamilyOf('/videogen10/video')).toBe('openai');
    expect(errorFamilyOf('/v1/chat/completions')).toBe('openai');
    expect(errorFamilyOf('/v1/responses')).toBe('openai');
    expect(errorFamilyOf('/v1/responses/resp_x/input_items?limit=2')).toBe('openai');
    expect(errorFamilyOf('/v1/messagesx')).toBe('openai');
    expect(errorFamilyOf('/v1beta2/x')).toBe('openai');
    expect(errorFamilyOf('/nothing/here')).toBe('openai');
  });

  it('sends the shared model routes by the caller’s headers', () => {
    expect(errorFamilyOf('/v1/models/gpt-4o', {})).toBe('openai');
    expect(errorFamilyOf('/v1/models/gpt-4o', { 'anthropic-version': '2023-06-01' })).toBe('anthropic');
    expect(errorFamilyOf('/v1/models/gpt-4o', { 'x-api-key': 'k' })).toBe('anthropic');
    expect(errorFamilyOf('/v1/models', { 'x-goog-api-key': 'k' })).toBe('gemini');
    expect(errorFamilyOf('/v1/models?key=k', {})).toBe('gemini');
    expect(errorFamilyOf('/v1/models/gpt-4o')).toBe('openai');
  });
});
