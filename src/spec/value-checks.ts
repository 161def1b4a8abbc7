import { checkSchemaValues } from "./check-schema-values.js";
import { createAjv } from "./ajv.js";
import type { SchemaFinding, SpecIndex } from "./schema-refs.js";

/**
 * Checks the `enum`, `const`, `default` and `examples` values in the flows' own schemas against
 * those schemas. The flows and every file they reach passed the other checks, the meta-schema's
 * and the `$ref` cycles' included: `checkSpecs` checks values only then.
 *
 * @example
 * const findings = checkFlowValues(["@acme/qa.json"], index);
 */
export function checkFlowValues(relPaths: readonly string[], index: SpecIndex): SchemaFinding[] {
  const roots = relPaths.flatMap((relPath) =>
    ["/input", "/output"].map((root) => ({ relPath, root })),
  );
  return checkSchemaValues(valuesAjv, roots, index);
}

/**
 * Checks the `enum`, `const`, `default` and `examples` values in shared schema files against their
 * schemas. The files passed the other checks, as for `checkFlowValues`.
 *
 * @example
 * const findings = checkSharedValues(["_shared/money.json"], index);
 */
export function checkSharedValues(relPaths: readonly string[], index: SpecIndex): SchemaFinding[] {
  const roots = relPaths.map((relPath) => ({ relPath, root: "" }));
  return checkSchemaValues(valuesAjv, roots, index);
}

/**
 * The Ajv of the value checks. Each validator runs a few times at most: compiled without Ajv's
 * optimizing pass, which costs more than it saves then (bench/NOTES.md). The schemas passed the
 * meta-schema check already.
 */
function valuesAjv() {
  return createAjv({ optimize: false, validateSchema: false });
}
