import { getAtPointer, isPlainObject } from "../json-pointer.js";
import {
  resolveRef,
  type SchemaFinding,
  type SchemaResource,
  type SpecIndex,
} from "./schema-refs.js";

type Finding = Omit<SchemaFinding, "relPath">;

/** Keywords that only constrain objects: a schema with one of them and no `type` is meant as an object. */
const OBJECT_KEYWORDS = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
];

/**
 * The request and response bodies are JSON objects (seed §2), so each root must describe one:
 * `type: "object"`, or no `type` but object keywords (`properties`, …: the usual OpenAPI 3.0
 * style), directly, through `$ref`s, as one branch of an `allOf` or as every branch of an
 * `anyOf`/`oneOf`. The model then states `type: "object"` at the root. A root of `true` or
 * `false` (JSON Schema 2020-12 Core §4.3.2) describes no object: `true` is `{}`, which is refused
 * too, and `false` a flow no call could pass.
 */
export function checkObjectRoot(
  part: "input" | "output",
  resource: SchemaResource,
  index: SpecIndex,
): Finding[] {
  const root = getAtPointer(index.files.get(resource.relPath), resource.root);
  if (describesObject(root, resource, index, 32)) return [];
  return [{ code: "not-an-object-schema", pointer: `/${part}`, message: notAnObject(part, root) }];
}

function notAnObject(part: "input" | "output", root: unknown): string {
  const must = `the ${part} schema must describe a JSON object`;
  if (root === true)
    return `${must}, and true accepts any value (a string, a number, null); write { "type": "object" } instead, with the properties it has`;
  if (root === false)
    return `${must}, and false accepts no value at all, so no ${part === "input" ? "call could be made" : "answer could pass"}; write { "type": "object" } instead, with the properties it has`;
  return `${must}; add "type": "object" at its root (put other values inside a property)`;
}

function describesObject(
  schema: unknown,
  resource: SchemaResource,
  index: SpecIndex,
  budget: number,
): boolean {
  if (budget <= 0 || !isPlainObject(schema)) return false;
  // Object-or-null (OpenAPI 3.1's way to say 3.0's `nullable: true`) is an object: a body is never null.
  if (Array.isArray(schema.type))
    return (
      schema.type.includes("object") && schema.type.every((t) => t === "object" || t === "null")
    );
  if (schema.type !== undefined) return schema.type === "object";
  const follow = (sub: unknown) => describesObject(sub, resource, index, budget - 1);
  if (typeof schema.$ref === "string") {
    const resolved = resolveRef(schema.$ref, resource, index);
    // A $ref that leads nowhere is reported by the ref check; this one stays quiet.
    if (!resolved.ok) return true;
    if (
      describesObject(
        getAtPointer(index.files.get(resolved.target.relPath), resolved.target.pointer),
        resolved.resource,
        index,
        budget - 1,
      )
    )
      return true;
  }
  if (OBJECT_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword))) return true;
  if (Array.isArray(schema.allOf) && schema.allOf.some(follow)) return true;
  return (["anyOf", "oneOf"] as const).some((keyword) => {
    const branches = schema[keyword];
    return Array.isArray(branches) && branches.length > 0 && branches.every(follow);
  });
}
