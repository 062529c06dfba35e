/**
 * A preload that writes down what a process loads: `node --import ./test/helpers/record-modules.mjs …`
 * with GENGATE_RECORD_MODULES=<file> appends the URL of every module the process resolves (ESM
 * imports, static and dynamic, and the packages they reach), one a line. Plain JavaScript, so that
 * it runs before and without tsx.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

// The same file is the hooks module, loaded again on the loader's own thread.
const file = process.env.GENGATE_RECORD_MODULES;
if (isMainThread && file) register(import.meta.url, { data: file });

let out;

export function initialize(data) {
  out = data;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(out, `${result.url}\n`);
  return result;
}
