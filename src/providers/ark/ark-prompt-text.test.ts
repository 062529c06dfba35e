import { describe, expect, it } from 'vitest';
import { arkPromptText, MAX_ARK_PROMPT_CHARS } from './ark-prompt-text.js';

describe('arkPromptText', () => {
  it('appends the settings to the prompt as --name value', () => {
    expect(
      arkPromptText('a cat on a roof', [
        ['resolution', '720p'],
        ['ratio', '16:9'],
        ['duration', '5'],
        ['seed', '7'],
      ]),
    ).toBe('a cat on a roof --resolution 720p --ratio 16:9 --duration 5 --seed 7');
  });

  it("drops the prompt's own commands for settings the request sets (long and short names): the canonical value wins", () => {
    expect(
      arkPromptText('a cat --rs 480p --dur 10 --resolution 1080p --fps 24', [
        ['resolution', '720p'],
        ['duration', '5'],
      ]),
    ).toBe('a cat --fps 24 --resolution 720p --duration 5');
  });

  it("keeps the prompt's commands for settings the request leaves unset", () => {
    expect(arkPromptText('--rt 9:16 a dancer --cf true', [['resolution', '480p']])).toBe('--rt 9:16 a dancer --cf true --resolution 480p');
  });

  it('leaves dashes that are not commands alone', () => {
    expect(arkPromptText('wait -- what? a well-known -- scene', [])).toBe('wait -- what? a well-known -- scene');
  });

  it('is only the commands when there is no prompt (image-to-video)', () => {
    expect(arkPromptText(undefined, [['ratio', 'adaptive']])).toBe('--ratio adaptive');
    expect(arkPromptText('', [])).toBe('');
  });

  it('refuses an overlong prompt naming it', () => {
    expect(() => arkPromptText('x'.repeat(MAX_ARK_PROMPT_CHARS + 1), [])).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'prompt' }));
  });
});
