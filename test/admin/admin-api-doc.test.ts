import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAdminApiDoc } from './admin-api-doc.js';

describe('docs/admin-api.md', () => {
  it('is the rendering of the OpenAPI document the gateway serves (run `npm run docs:admin-api` after changing a route)', async () => {
    const committed = readFileSync(new URL('../../docs/admin-api.md', import.meta.url), 'utf8');
    expect(committed).toBe(await renderAdminApiDoc());
  });
});
