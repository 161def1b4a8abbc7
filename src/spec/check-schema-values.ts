import type { Ajv2020 } from "ajv/dist/2020.js";
import { escapePointerToken, getAtPointer, isPlainObject, joinPointer, splitPointer } from "../json-pointer.js";
import { describeParams, fileUri } from "./check-examples.js";
import { subschemasOf } from "./schema-keywords.js";
import type { SchemaFinding, SchemaResource, SpecIndex } from "./schema-refs.js";

/** Keywords whose values are instances the schema they sit in should accept. */
const VALUE_KEYWORDS = ["enum", "const", "default", "examples", "example"] as const;
/** Schemas per compiled validator: Ajv's code optimizer slows down more than linearly on one huge function. */
const BATCH = 100;

/** A schema with values, and each value with its keyword and place in the file. */
interface SchemaWithValues {
  readonly resource: SchemaResource;
  readonly pointer: string;
  readonly schema: Record<string, unknown>;
  readonly values: readonly { readonly value: unknown; readonly at: string; readonly keyword: string }[];
}

/**
 * Finds `enum`, `const`, `default` and `examples` values (and OpenAPI's `example`) that the schema
 * they belong to rejects: an `enum` member of the wrong type, a `default` outside the `enum`, a
 * `const` that breaks `maxLength`. JSON Schema 2020-12 Validation §9.2 and §9.5 say a default and
 * examples SHOULD validate; a value that never can is a mistake in the spec, and clients, mocks
 * and documentation built from it would show values the service refuses.
 *
 * A compiled validator checks a hundred schemas' values at once: an array schema with one
 * `prefixItems` entry per schema (`items` of that schema, for the list of its values). An entry is
 * a copy of the schema when it holds no `$ref` (the usual `{ "type": "string", "enum": […] }`),
 * else a `$ref` to it in its file; copies with the same text are checked once. Compiling per
 * schema, or referring to each (Ajv then compiles the whole file), would cost several times the
 * rest of the checks.
 *
 * @example
 * checkSchemaValues(ajv, [{ relPath: "@acme/qa.json", root: "/input" }], index);
 */
export function checkSchemaValues(ajv: Ajv2020, resources: readonly SchemaResource[], index: SpecIndex): SchemaFinding[] {
  const schemas = resources.flatMap((resource) => schemasWithValues(resource, getAtPointer(index.files.get(resource.relPath), resource.root)));
  // A schema without `$ref` holds its values and everything they are checked against, so equal
  // texts give equal answers: each distinct one is checked once (flows repeat the same enums).
  const distinct = new Map<string, Distinct>();
  const keys = schemas.map((entry) => {
    const text = JSON.stringify(entry.schema);
    const ref = text.includes('"$ref"') ? entryRef(entry) : undefined;
    // A `$ref` reaches other schemas: those are checked where they sit, each apart.
    const key = ref === undefined ? text : `$ref ${ref}`;
    if (!distinct.has(key)) distinct.set(key, { items: ref === undefined ? entry.schema : { $ref: ref }, values: entry.values.map((item) => item.value), errors: new Map() });
    return key;
  });
  const unique = [...distinct.values()];
  for (let start = 0; start < unique.length; start += BATCH) checkBatch(ajv, unique.slice(start, start + BATCH));
  return schemas.flatMap((entry, i) => {
    const errors = distinct.get(keys[i] as string)?.errors ?? new Map();
    return [...errors].map(([item, error]) => {
      const value = entry.values[item] ?? { at: "", keyword: "" };
      return {
        code: "invalid-schema-value" as const,
        relPath: entry.resource.relPath,
        pointer: value.at,
        message: `this ${value.keyword} value fails its own schema${error.inner ? ` at ${error.inner}` : ""}: ${error.message ?? "is invalid"}${describeParams(error.params)}; fix the value or the schema`,
      };
    });
  });
}

/** Per value (by its position in the schema's list of values), the first error about it: it says enough. */
type ValueErrors = Map<number, { readonly inner: string; readonly message: string | undefined; readonly params: Record<string, unknown> }>;

/** A distinct schema to check: itself (or a `$ref` to it) as `items`, its values, and the errors found. */
interface Distinct {
  readonly items: unknown;
  readonly values: readonly unknown[];
  readonly errors: ValueErrors;
}

/** Checks the values of up to BATCH schemas with one validator, and records each schema's errors. */
function checkBatch(ajv: Ajv2020, batch: readonly Distinct[]): void {
  const validate = ajv.compile({ type: "array", prefixItems: batch.map(({ items }) => ({ type: "array", items })) });
  if (validate(batch.map(({ values }) => values))) return;
  for (const error of validate.errors ?? []) {
    const [entry, item] = splitPointer(error.instancePath).map(Number);
    if (entry === undefined || item === undefined) continue;
    const errors = batch[entry]?.errors;
    if (errors === undefined || errors.has(item)) continue;
    errors.set(item, { inner: error.instancePath.slice(`/${entry}/${item}`.length), message: error.message, params: error.params });
  }
}

/** The URI of the schema in its resource, as Ajv knows it once `addSchemas` has run. */
function entryRef({ resource, pointer }: SchemaWithValues): string {
  const base = fileUri(resource.relPath, resource.root === "" ? undefined : (resource.root.slice(1) as "input" | "output"));
  const tokens = splitPointer(pointer.slice(resource.root.length));
  return `${base}#${tokens.map((token) => `/${encodeURIComponent(escapePointerToken(token))}`).join("")}`;
}

/** Every schema in the resource that has value keywords, walking its subschemas without recursion. */
function schemasWithValues(resource: SchemaResource, root: unknown): SchemaWithValues[] {
  const found: SchemaWithValues[] = [];
  const stack = [{ schema: root, pointer: resource.root }];
  while (stack.length > 0) {
    const { schema, pointer } = stack.pop() as { schema: unknown; pointer: string };
    if (!isPlainObject(schema)) continue;
    const values = VALUE_KEYWORDS.flatMap((keyword) => {
      if (!Object.hasOwn(schema, keyword)) return [];
      const value = schema[keyword];
      if ((keyword === "enum" || keyword === "examples") && Array.isArray(value)) return value.map((item, i) => ({ value: item, at: joinPointer(pointer, keyword, i), keyword }));
      return [{ value, at: joinPointer(pointer, keyword), keyword }];
    });
    if (values.length > 0) found.push({ resource, pointer, schema, values });
    stack.push(...subschemasOf(schema, pointer));
  }
  return found;
}
