import type { ValidateFunction } from "ajv";
import { flowFile, metaSchema } from "./compiled-spec-validators.js";

/** The two fixed checks every spec check runs: a flow file's shape, and a schema against the meta-schema. */
export interface SpecFileValidators {
  /** Checks a flow spec file's value against `schema/flow-spec.schema.json`. */
  readonly flowFile: ValidateFunction;
  /** Checks a schema against the JSON Schema 2020-12 meta-schema, as `ajv.validateSchema` does. */
  readonly metaSchema: ValidateFunction;
}

/**
 * The spec checks' validators. Both check fixed schemas, so Ajv compiles them ahead of time with
 * `createAjv`'s options (`compiled-spec-validators.ts`, which `scripts/compile-spec-validators.mjs`
 * writes): a run loads them instead of Ajv and the meta-schema, which cost most of a small run's
 * check, or of a one-spec edit's.
 *
 * @example
 * if (!SPEC_FILE_VALIDATORS.flowFile(value)) console.log(SPEC_FILE_VALIDATORS.flowFile.errors);
 */
export const SPEC_FILE_VALIDATORS = { flowFile, metaSchema } as unknown as SpecFileValidators;
