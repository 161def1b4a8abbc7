import { isPlainObject } from "../json-pointer.js";
import { isAnnotation } from "./ref-siblings.js";
import { listRequiredProperties } from "./required-properties.js";

/**
 * An object whose `anyOf` or `oneOf` branches only list `required` names
 * (`{ "properties": { "a": …, "b": … }, "anyOf": [{ "required": ["a"] }, { "required": ["b"] }] }`):
 * a value must meet the object and one branch (JSON Schema 2020-12 §10.2.1.2-3), but
 * openapi-typescript types each branch `unknown`, so the type took `42`, or `{}`. Here, in the
 * flow's document as openapi-typescript reads it, each branch is given its names as properties
 * (as `listRequiredProperties` gives them), typed `{ a: unknown }`, and the type is the object's
 * intersected with the union of the branches: each name required, of the type the object's
 * properties give it. openapi-typescript intersects a `oneOf` so; an `anyOf` it would make a
 * union with the object, so it moves into an `allOf` entry, which means the same. Left alone: an
 * object that may be something else too (`"type": ["object", "null"]`), or has a discriminator,
 * and branches that say more than names.
 *
 * @example
 * typeRequiredBranches(schema); // anyOf [{ required: ["a"] }] becomes allOf [{ anyOf: [{ required: ["a"], properties: { a: {} } }] }]
 */
export function typeRequiredBranches(schema: Record<string, unknown>): void {
  if (!isObjectOnly(schema) || schema.discriminator !== undefined) return;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || !branches.every(listsNamesOnly)) continue;
    for (const branch of branches) {
      branch.properties = {};
      listRequiredProperties(branch);
    }
    if (keyword === "oneOf") continue;
    delete schema.anyOf;
    const parts = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : [];
    schema.allOf = [...parts, { anyOf: branches }];
  }
}

/** An object schema and nothing else: `"type": "object"`, or no type and some properties. */
function isObjectOnly(schema: Record<string, unknown>): boolean {
  const { type, properties } = schema;
  if (type === "object") return true;
  return type === undefined && isPlainObject(properties) && Object.keys(properties).length > 0;
}

/** A branch that lists `required` names and says nothing else about values. */
function listsNamesOnly(branch: unknown): branch is Record<string, unknown> {
  if (!isPlainObject(branch) || !Array.isArray(branch.required)) return false;
  return Object.keys(branch).every((keyword) => keyword === "required" || isAnnotation(keyword));
}
