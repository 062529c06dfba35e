/** Moved to `providers/shared` (every task provider needs it); this path stays for existing imports. */
export { submitFailure } from '../shared/uncertain-submit.js';
