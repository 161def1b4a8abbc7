import type { Ajv2020 } from "ajv/dist/2020.js";
import {
  escapePointerToken,
  getAtPointer,
  isPlainObject,
  joinPointer,
  splitPointer,
} from "../json-pointer.js";
import { schemaForAjv } from "./ajv.js";
import { addSchemas, describeParams } from "./check-examples.js";
import { yamlBooleanHint } from "./describe-ajv-errors.js";
import { screenValues } from "./example-screen.js";
import { fileUri } from "./file-uri.js";
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
  readonly values: readonly {
    readonly value: unknown;
    readonly at: string;
    readonly keyword: string;
  }[];
}

/**
 * Finds `enum`, `const`, `default` and `examples` values (and OpenAPI's `example`) that the schema
 * they belong to rejects: an `enum` member of the wrong type, a `default` outside the `enum`, a
 * `const` that breaks `maxLength`. JSON Schema 2020-12 Validation §9.2 and §9.5 say a default and
 * examples SHOULD validate; a value that never can is a mistake in the spec, and clients, mocks
 * and documentation built from it would show values the service refuses.
 *
 * Values are screened first (`screenValues`); the Ajv `makeAjv` makes checks the rest, and is made
 * only when there are any. It is given the shared schema files and the flow schemas its checks
 * refer to.
 *
 * A compiled validator checks a hundred schemas' values at once: an array schema with one
 * `prefixItems` entry per schema (`items` of that schema, for the list of its values). An entry is
 * a copy of the schema when it holds no `$ref` (less what `groupValues` drops), else a `$ref` to it
 * in its file; copies with the same text are one entry, for all their values. Compiling per
 * schema, or referring to each (Ajv then compiles the whole file), would cost several times the
 * rest of the checks.
 *
 * @example
 * checkSchemaValues(() => createAjv(), [{ relPath: "@acme/qa.json", root: "/input" }], index);
 */
export function checkSchemaValues(
  makeAjv: () => Ajv2020,
  resources: readonly SchemaResource[],
  index: SpecIndex,
): SchemaFinding[] {
  const schemas = resources.flatMap((resource) =>
    schemasWithValues(resource, getAtPointer(index.files.get(resource.relPath), resource.root)),
  );
  const groups = schemas.flatMap(groupValues);
  // Equal texts give equal answers: each distinct schema is compiled once (flows repeat the same
  // enums), and checks the values of all its copies, each copy's from `offset` on.
  const entries = new Map<string, Entry>();
  const offsets = groups.map((group) => {
    const entry: Entry = entries.get(group.key) ?? {
      items: group.items,
      values: [],
      errors: new Map(),
    };
    entries.set(group.key, entry);
    const offset = entry.values.length;
    for (const item of group.values) entry.values.push(item.value);
    return offset;
  });
  const unscreened = [...entries.values()].filter(
    (entry) => isRef(entry.items) || !screenValues(entry.items, entry.values),
  );
  if (unscreened.length > 0) {
    const ajv = makeAjv();
    const referred = groups
      .filter((group) => isRef(group.items))
      .map((group) => group.resource.relPath);
    addSchemas(ajv, index, new Set(referred.filter((relPath) => index.flowFiles.has(relPath))));
    for (let start = 0; start < unscreened.length; start += BATCH)
      checkBatch(ajv, unscreened.slice(start, start + BATCH));
  }
  return groups.flatMap((group, i) => {
    const errors = entries.get(group.key)?.errors;
    return group.values.flatMap((value, item) => {
      const error = errors?.get((offsets[i] ?? 0) + item);
      if (error === undefined) return [];
      return [
        {
          // OpenAPI 3.0's `example` is an annotation imported descriptions get wrong often: a rule of its own, a warning by default.
          code:
            value.keyword === "example"
              ? ("invalid-schema-example" as const)
              : ("invalid-schema-value" as const),
          relPath: group.resource.relPath,
          pointer: value.at,
          message: `this ${value.keyword} value fails its own schema${error.inner ? ` at ${error.inner}` : ""}: ${error.message ?? "is invalid"}${describeParams(error.params)}; ${yamlBooleanHint(group.resource.relPath, getAtPointer(value.value, error.inner), error.params) ?? "fix the value or the schema"}`,
        },
      ];
    });
  });
}

/** Whether a group's `items` is a `$ref` to its schema, not a copy of it. */
function isRef(items: unknown): boolean {
  return isPlainObject(items) && Object.keys(items).length === 1 && typeof items.$ref === "string";
}

/** Keywords that never fail a value (annotations; `example` is unknown to Ajv): a copy without them checks the same. */
const ANNOTATIONS = new Set([
  "default",
  "examples",
  "example",
  "title",
  "description",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Values of one schema checked against one schema text: `items` is that schema (or a `$ref` to it) and `key` its text. */
interface ValueGroup {
  readonly resource: SchemaResource;
  readonly items: unknown;
  readonly key: string;
  readonly values: SchemaWithValues["values"];
}

/**
 * A schema's values, in order, grouped by what to check them against. A schema without `$ref`
 * holds everything its values are checked against, so a copy serves: without annotations, and
 * for `enum` (or `const`) members without that keyword too, since a value always equals itself.
 * That leaves `{ "type": "string" }` for most enums, one entry for all of them. A schema with a
 * `$ref` is referred to where it sits (other schemas are reached from it).
 */
function groupValues(entry: SchemaWithValues): ValueGroup[] {
  const text = JSON.stringify(entry.schema);
  if (text.includes('"$ref"')) {
    const ref = entryRef(entry);
    return [
      { resource: entry.resource, items: { $ref: ref }, key: `$ref ${ref}`, values: entry.values },
    ];
  }
  const groups: (ValueGroup & { own: string; values: SchemaWithValues["values"][number][] })[] = [];
  for (const value of entry.values) {
    const own = value.keyword === "enum" || value.keyword === "const" ? value.keyword : "";
    const last = groups.at(-1);
    if (last?.own === own) {
      last.values.push(value);
      continue;
    }
    // fromEntries defines own properties, so a "__proto__" key stays plain data.
    const items = Object.fromEntries(
      Object.entries(entry.schema).filter(
        ([keyword]) => keyword !== own && !ANNOTATIONS.has(keyword),
      ),
    );
    groups.push({
      resource: entry.resource,
      items,
      key: JSON.stringify(items),
      own,
      values: [value],
    });
  }
  return groups;
}

/** Per value (by its position in the entry's list of values), the first error about it: it says enough. */
type ValueErrors = Map<
  number,
  {
    readonly inner: string;
    readonly message: string | undefined;
    readonly params: Record<string, unknown>;
  }
>;

/** One `prefixItems` entry: a schema (or a `$ref` to it) as `items`, the values it checks, and the errors found. */
interface Entry {
  readonly items: unknown;
  readonly values: unknown[];
  readonly errors: ValueErrors;
}

/** Checks the values of up to BATCH entries with one validator, and records each entry's errors. */
function checkBatch(ajv: Ajv2020, batch: readonly Entry[]): void {
  const validate = ajv.compile({
    type: "array",
    prefixItems: batch.map(({ items }) => ({ type: "array", items: schemaForAjv(items) })),
  });
  if (validate(batch.map(({ values }) => values))) return;
  for (const error of validate.errors ?? []) {
    const [entry, item] = splitPointer(error.instancePath).map(Number);
    if (entry === undefined || item === undefined) continue;
    const errors = batch[entry]?.errors;
    if (errors === undefined || errors.has(item)) continue;
    errors.set(item, {
      inner: error.instancePath.slice(`/${entry}/${item}`.length),
      message: error.message,
      params: error.params,
    });
  }
}

/** The URI of the schema in its resource, as `addSchemas` registers it. */
function entryRef({ resource, pointer }: SchemaWithValues): string {
  const base = fileUri(
    resource.relPath,
    resource.root === "" ? undefined : (resource.root.slice(1) as "input" | "output"),
  );
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
      if ((keyword === "enum" || keyword === "examples") && Array.isArray(value))
        return value.map((item: unknown, i) => ({
          value: item,
          at: joinPointer(pointer, keyword, i),
          keyword,
        }));
      return [{ value, at: joinPointer(pointer, keyword), keyword }];
    });
    if (values.length > 0) found.push({ resource, pointer, schema, values });
    stack.push(...subschemasOf(schema, pointer));
  }
  return found;
}
