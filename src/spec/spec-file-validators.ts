import type { Ajv2020 } from "ajv/dist/2020.js";
import { FLOW_SPEC_SCHEMA, createAjv } from "./ajv.js";

/** The two fixed checks every spec check runs: a flow file's shape, and a schema against the meta-schema. */
export interface SpecFileValidators {
  /** Checks a flow spec file's value against `schema/flow-spec.schema.json`. */
  readonly flowFile: ReturnType<Ajv2020["compile"]>;
  /** Checks a schema against the JSON Schema 2020-12 meta-schema; its errors are on `ajv.errors`. */
  readonly ajv: Pick<Ajv2020, "validateSchema" | "errors">;
}

let validators: SpecFileValidators | undefined;

/**
 * The spec checks' validators, compiled once per process (or worker thread) and shared by every
 * run in it. Both check fixed schemas (flow-spec.schema.json and the 2020-12 meta-schema it
 * refers to), so nothing of a run is kept: no run adds a schema to this Ajv. Compiling the
 * meta-schema is most of a small run's check, and a watch loop, serve's reloads or the
 * programmatic API run the checks many times in one process.
 *
 * @example
 * if (!specFileValidators().flowFile(value)) console.log(specFileValidators().flowFile.errors);
 */
export function specFileValidators(): SpecFileValidators {
  if (validators !== undefined) return validators;
  const ajv = createAjv();
  validators = { flowFile: ajv.compile(FLOW_SPEC_SCHEMA), ajv };
  return validators;
}
