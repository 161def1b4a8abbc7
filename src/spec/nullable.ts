import { isPlainObject } from "../json-pointer.js";
import { mapSubschemas } from "./schema-keywords.js";

/**
 * Reads OpenAPI 3.0's `nullable` as 3.0.3 defines it (Schema Object, `nullable`): `true` adds
 * `"null"` to the types `type` allows, and only when `type` is in the same schema; every other
 * keyword keeps its meaning, so an `enum` (or `const`) without `null` still refuses null, and
 * `type` is left as it is there. `false`, and `true` without `type`, say nothing. JSON Schema 2020-12 and OpenAPI 3.1 have no `nullable`, so the
 * keyword is removed and `type` says it: `{ "type": ["string", "null"] }`. Nothing else moves,
 * so every JSON pointer into the schema still finds what it found. A `nullable` whose value is not
 * a boolean is left for the keyword check to report.
 *
 * `kind` says where the schemas are: a flow spec's `input` and `output`, or a whole shared file.
 * A value without `nullable` anywhere comes back as it is.
 *
 * @example
 * readNullable({ input: { type: "object", properties: { a: { type: "string", nullable: true } } } }, "flow");
 * // { input: { type: "object", properties: { a: { type: ["string", "null"] } } } }
 */
export function readNullable(value: unknown, kind: "flow" | "shared"): unknown {
  if (kind === "shared") return rewriteSchema(value);
  if (!isPlainObject(value)) return value;
  const input = rewriteSchema(value.input);
  const output = rewriteSchema(value.output);
  if (input === value.input && output === value.output) return value;
  // fromEntries defines own properties, so a "__proto__" key stays plain data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "input" ? input : key === "output" ? output : item,
    ]),
  );
}

function rewriteSchema(schema: unknown): unknown {
  if (!isPlainObject(schema) || !holdsNullable(schema)) return schema;
  const mapped = mapSubschemas(schema, rewriteSchema);
  const nullable = mapped.nullable;
  if (typeof nullable !== "boolean") return mapped;
  const { nullable: _dropped, ...rest } = mapped;
  // An enum or const without null refuses null whatever `type` says: adding it there would only
  // give the generated type a `| null` no value can take.
  if (nullable && rest.type !== undefined && !refusesNull(rest)) rest.type = addNull(rest.type);
  return rest;
}

function refusesNull(schema: Record<string, unknown>): boolean {
  if (Object.hasOwn(schema, "const")) return schema.const !== null;
  return Array.isArray(schema.enum) && !schema.enum.includes(null);
}

/** `"string"` → `["string", "null"]`; a list gains `"null"` at its end unless it has it. */
function addNull(type: unknown): unknown {
  if (typeof type === "string") return type === "null" ? type : [type, "null"];
  if (Array.isArray(type)) return type.includes("null") ? type : [...(type as unknown[]), "null"];
  return type;
}

/** Whether `nullable` is a key anywhere in the schema: most schemas have none and are not copied. */
function holdsNullable(value: unknown): boolean {
  const stack: unknown[] = [value];
  // Bounded: parsed documents nest at most 128 levels, and each value is visited once.
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...(item as unknown[]));
    else if (isPlainObject(item)) {
      if (Object.hasOwn(item, "nullable")) return true;
      stack.push(...Object.values(item));
    }
  }
  return false;
}
