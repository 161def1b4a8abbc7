import type { Ajv2020 } from "ajv/dist/2020.js";
import { isPlainObject, joinPointer } from "../json-pointer.js";
import { schemaForAjv } from "./ajv.js";
import type { SchemaFinding, SpecIndex } from "./schema-refs.js";

/** Base URI of a file in the specs folder; relative `$ref`s resolve against it (RFC 3986 §5.2). */
export function fileUri(relPath: string, part?: "input" | "output"): string {
  return `file:///${encodeURI(relPath)}${part ? `?${part}` : ""}`;
}

/**
 * Registers every shared schema file, and the input and output of each flow in `flows` under its
 * own base URI, so cross-file `$ref`s resolve inside Ajv and any subschema can be reached as
 * `<uri>#<pointer>`. Only the flows a check refers to: Ajv walks each schema it is given. They
 * passed the meta-schema check already: Ajv is not asked to repeat it.
 */
export function addSchemas(ajv: Ajv2020, index: SpecIndex, flows: Iterable<string>): void {
  for (const [relPath, value] of index.files) {
    if (!index.flowFiles.has(relPath) && isPlainObject(value))
      ajv.addSchema(schemaForAjv(withoutSchemaKeyword(value)), fileUri(relPath), undefined, false);
  }
  for (const relPath of flows) {
    const value = index.files.get(relPath);
    if (!isPlainObject(value)) continue;
    for (const part of ["input", "output"] as const)
      if (isPlainObject(value[part]))
        ajv.addSchema(
          schemaForAjv(withoutSchemaKeyword(value[part])),
          fileUri(relPath, part),
          undefined,
          false,
        );
  }
}

/**
 * Checks each `examples[i].input` / `.output` of one flow against the flow's own schemas. The
 * query in the base URI keeps input and output apart while relative paths still resolve.
 */
export function checkExamples(
  ajv: Ajv2020,
  relPath: string,
  spec: Record<string, unknown>,
): SchemaFinding[] {
  const examples = spec.examples;
  if (!Array.isArray(examples) || examples.length === 0) return [];
  const findings: SchemaFinding[] = [];
  for (const part of ["input", "output"] as const) {
    const schema = spec[part];
    if (!isPlainObject(schema)) continue;
    const validate = ajv.getSchema(fileUri(relPath, part));
    if (validate === undefined) continue;
    examples.forEach((example: unknown, i) => {
      if (!isPlainObject(example) || !Object.hasOwn(example, part)) return;
      if (validate(example[part])) return;
      const label = typeof example.name === "string" ? `example "${example.name}"` : `example ${i}`;
      for (const error of validate.errors ?? []) {
        const pointer = joinPointer("", "examples", i, part) + error.instancePath;
        findings.push({
          code: "invalid-example",
          relPath,
          pointer,
          message: `${label}: ${part}${error.instancePath} ${error.message ?? "is invalid"}${describeParams(error.params)}; fix the example or the ${part} schema`,
        });
      }
    });
  }
  return findings;
}

export function describeParams(params: Record<string, unknown>): string {
  if (Array.isArray(params.allowedValues))
    return ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")})`;
  if (Object.hasOwn(params, "allowedValue")) return ` (${JSON.stringify(params.allowedValue)})`;
  if (typeof params.additionalProperty === "string") return ` ("${params.additionalProperty}")`;
  return "";
}

function withoutSchemaKeyword(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
