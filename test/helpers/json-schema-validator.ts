/**
 * A JSON Schema validator for tests (ajv, draft 2020-12 as zod 4 emits, with the standard
 * string formats): checks the sandbox's generated values independently of the generator.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

export function createSchemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
  formatsPlugin.default(ajv);
  return ajv;
}

export type { ValidateFunction };
