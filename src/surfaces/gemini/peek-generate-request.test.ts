import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { peekGeminiGenerateRequest } from './peek-generate-request.js';

describe('peekGeminiGenerateRequest', () => {
  it('accepts native fields and measures inline PDFs in either spelling', () => {
    const pdf = Buffer.alloc(900, 2).toString('base64');
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'read' },
            { inlineData: { mimeType: 'application/pdf', data: pdf } },
            { inline_data: { mime_type: 'APPLICATION/PDF', data: pdf } },
            { inlineData: { mimeType: 'image/png', data: pdf } },
          ],
        },
      ],
      tools: [{ googleSearch: {} }],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    };
    expect(peekGeminiGenerateRequest(body, 'gemini-2.5-flash', true)).toEqual({
      model: 'gemini-2.5-flash',
      stream: true,
      documents: [
        { param: 'contents[0].parts[1].inlineData.data', bytes: 900 },
        { param: 'contents[0].parts[2].inline_data.data', bytes: 900 },
      ],
    });
  });

  it('refuses a body that is not an object, and an overlong model', () => {
    for (const [body, model] of [
      [[], 'm'],
      [{ contents: [] }, 'm'.repeat(257)],
    ] as const) {
      let error: unknown;
      try {
        peekGeminiGenerateRequest(body, model, false);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).kind).toBe('invalid_request');
    }
  });
});
