/** Writes docs/admin-api.md from the admin API's OpenAPI document (`npm run docs:admin-api`). */
import { writeFileSync } from 'node:fs';
import { renderAdminApiDoc } from '../test/admin/admin-api-doc.js';

writeFileSync(new URL('../docs/admin-api.md', import.meta.url), await renderAdminApiDoc());
console.log('wrote docs/admin-api.md');
