import { isPlainObject } from "../json-pointer.js";

/**
 * `prefixItems` (JSON Schema 2020-12 §10.3.1.1) give the schemas of an array's first items, and
 * `items` those of the rest; neither makes the array that long unless `minItems` does. openapi-
 * typescript types the prefix as a tuple of exactly its length and drops `items`, so
 * `{ prefixItems: [string], items: boolean }` refused `[]` and `["a", true]`, and a schema whose
 * prefix refers to itself had no value at all. A tuple is exact only where `items` is `false` and
 * `minItems` reaches the prefix's length, and is left as it is then. Otherwise, in the flow's
 * document as openapi-typescript reads it, the prefix becomes part of `items`: an array whose
 * every item meets one of the prefix's schemas or `items`' (any value, where `items` is absent or
 * `true`). The type then takes every array the schema takes, and some it refuses.
 *
 * @example
 * loosenPrefixItems(schema); // { prefixItems: [A], items: B } becomes { items: { anyOf: [A, B] } }
 */
export function loosenPrefixItems(schema: Record<string, unknown>): void {
  const { prefixItems, items, minItems } = schema;
  if (!Array.isArray(prefixItems)) return;
  const closed = items === false;
  if (closed && (typeof minItems === "number" ? minItems : 0) >= prefixItems.length) return;
  delete schema.prefixItems;
  if (takesAnything(items)) {
    delete schema.items;
    return;
  }
  const members = closed ? (prefixItems as unknown[]) : [...(prefixItems as unknown[]), items];
  schema.items = members.length === 1 ? members[0] : { anyOf: members };
}

/** Whether `items` lets any value follow the prefix: absent, `true` or `{}`. */
function takesAnything(items: unknown): boolean {
  return (
    items === undefined ||
    items === true ||
    (isPlainObject(items) && Object.keys(items).length === 0)
  );
}
