import type { Ajv2020 } from "ajv/dist/2020.js";
import { getAtPointer, isPlainObject, joinPointer } from "../json-pointer.js";
import { describeParams, fileUri } from "./check-examples.js";
import { subschemasOf } from "./schema-keywords.js";
import type { SchemaFinding, SchemaResource, SpecIndex } from "./schema-refs.js";

/** Keywords whose values are instances the schema they sit in should accept. */
const VALUE_KEYWORDS = ["enum", "const", "default", "examples", "example"] as const;

/**
 * Finds `enum`, `const`, `default` and `examples` values (and OpenAPI's `example`) that the schema
 * they belong to rejects: an `enum` member of the wrong type, a `default` outside the `enum`, a
 * `const` that breaks `maxLength`. JSON Schema 2020-12 Validation §9.2 and §9.5 say a default and
 * examples SHOULD validate; a value that never can is a mistake in the spec, and clients, mocks
 * and documentation built from it would show values the service refuses.
 *
 * @example
 * checkSchemaValues(ajv, { relPath: "@acme/qa.json", root: "/input" }, index);
 */
export function checkSchemaValues(ajv: Ajv2020, resource: SchemaResource, index: SpecIndex): SchemaFinding[] {
  const base = fileUri(resource.relPath, resource.root === "" ? undefined : (resource.root.slice(1) as "input" | "output"));
  const findings: SchemaFinding[] = [];
  const stack = [{ schema: getAtPointer(index.files.get(resource.relPath), resource.root), pointer: resource.root }];
  while (stack.length > 0) {
    const { schema, pointer } = stack.pop() as { schema: unknown; pointer: string };
    if (!isPlainObject(schema)) continue;
    const values = VALUE_KEYWORDS.flatMap((keyword) => valuesOf(schema, keyword, pointer));
    if (values.length > 0) {
      // The whole subschema, reached through its resource so that its own `$ref`s resolve.
      const validate = ajv.compile({ $ref: `${base}#${encodeURI(pointer.slice(resource.root.length))}` });
      for (const { value, at, keyword } of values) {
        if (validate(value)) continue;
        const error = validate.errors?.[0];
        const where = error?.instancePath ? ` at ${error.instancePath}` : "";
        findings.push({
          code: "invalid-schema-value",
          relPath: resource.relPath,
          pointer: at,
          message: `this ${keyword} value fails its own schema${where}: ${error?.message ?? "is invalid"}${describeParams(error?.params ?? {})}; fix the value or the schema`,
        });
      }
    }
    stack.push(...subschemasOf(schema, pointer));
  }
  return findings.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

function valuesOf(schema: Record<string, unknown>, keyword: (typeof VALUE_KEYWORDS)[number], pointer: string): { value: unknown; at: string; keyword: string }[] {
  if (!Object.hasOwn(schema, keyword)) return [];
  const value = schema[keyword];
  if ((keyword === "enum" || keyword === "examples") && Array.isArray(value)) {
    return value.map((item, i) => ({ value: item, at: joinPointer(pointer, keyword, i), keyword }));
  }
  return [{ value, at: joinPointer(pointer, keyword), keyword }];
}
