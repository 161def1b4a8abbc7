import type { AnySchemaObject, ErrorObject, FuncKeywordDefinition } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { configure } from "safe-stable-stringify";

/** What a keyword's `compile` gives back: a check whose failures it leaves on its `errors`. */
type DataValidateFunction = ReturnType<NonNullable<FuncKeywordDefinition["compile"]>>;

/** Two equal items of an array, as Ajv's `uniqueItems` error names them in its params. */
interface Duplicate {
  readonly i: number;
  readonly j: number;
}

/**
 * JSON with object keys sorted and numbers as JSON writes them (1 and 1.0 alike): equal JSON
 * values, and only they, give equal text (JSON Schema §4.2.2, instance equality). A cycle can only
 * come from a handler's output, which JSON cannot send either: it throws.
 */
const canonicalJson = configure({ deterministic: true, circularValue: TypeError });

/**
 * Swaps Ajv's `uniqueItems` (Validation §6.4.3) for one that runs in time linear in the array's
 * JSON (sorting each object's keys aside): Ajv compares every pair of items with a deep equal
 * unless `items` allows scalars of given types only, so 300,000 small objects would pin serve's
 * CPU. Each item's canonical JSON goes into a Map instead. Verdicts, the items skipped and the
 * error (keyword, params `{ i, j }`, message) are Ajv's own, and the keyword keeps its place
 * among the array keywords, so serve's 400 bodies list the same details in the same order.
 *
 * @example
 * const ajv = createAjv();
 * useLinearUniqueItems(ajv);
 * ajv.validate({ uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1.0 }]); // false
 */
export function useLinearUniqueItems(ajv: Ajv2020): void {
  const arrayRules = ajv.RULES.rules.find((group) => group.type === "array")?.rules ?? [];
  const at = arrayRules.findIndex((rule) => rule.keyword === "uniqueItems");
  const next = at < 0 ? undefined : arrayRules[at + 1]?.keyword;
  ajv.removeKeyword("uniqueItems");
  const definition: FuncKeywordDefinition = {
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    errors: true,
    compile: (schema: boolean, parentSchema: AnySchemaObject) =>
      schema ? validateUniqueItems(scalarItemTypes(parentSchema)) : () => true,
  };
  ajv.addKeyword(next === undefined ? definition : { ...definition, before: next });
}

function validateUniqueItems(scalarTypes: readonly string[]): DataValidateFunction {
  const validate: DataValidateFunction = (data: unknown) => {
    const items = data as readonly unknown[];
    const duplicate =
      scalarTypes.length > 0 ? firstScalarDuplicate(items, scalarTypes) : lastDuplicate(items);
    validate.errors = duplicate === undefined ? undefined : [duplicateError(duplicate)];
    return duplicate === undefined;
  };
  return validate;
}

/**
 * Ajv's generic loop tries `i` from the last item down and `j` from `i - 1` down: the duplicate it
 * reports is the last item equal to an earlier one, with the nearest such earlier one. One pass
 * forward finds the same pair, so it cannot stop at the first duplicate it meets.
 */
function lastDuplicate(items: readonly unknown[]): Duplicate | undefined {
  const seen = new Map<string, number>();
  let found: Duplicate | undefined;
  for (let i = 0; i < items.length; i++) {
    const key = canonicalKey(items[i]);
    const j = seen.get(key);
    if (j !== undefined) found = { i, j };
    seen.set(key, i);
  }
  return found;
}

/**
 * Ajv's loop for `items` of scalar types only: from the last item down, skipping items of other
 * types (`items` reports those), it stops at the first item equal to a later one, `j` the nearest.
 */
function firstScalarDuplicate(
  items: readonly unknown[],
  types: readonly string[],
): Duplicate | undefined {
  const seen = new Map<string, number>();
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!types.some((type) => hasType(item, type))) continue;
    const key = canonicalKey(item);
    const j = seen.get(key);
    if (j !== undefined) return { i, j };
    seen.set(key, i);
  }
  return undefined;
}

/** An item with no JSON (`undefined` in a handler's output) equals only its like, as in Ajv. */
function canonicalKey(item: unknown): string {
  return canonicalJson(item) ?? "";
}

function duplicateError({ i, j }: Duplicate): Partial<ErrorObject> {
  return {
    keyword: "uniqueItems",
    message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: { i, j },
  };
}

/** What Ajv's `getSchemaTypes` reads from `items`: scalar types only, else none. */
function scalarItemTypes(parentSchema: AnySchemaObject): readonly string[] {
  const items: unknown = parentSchema.items;
  if (typeof items !== "object" || items === null) return [];
  const { type, nullable } = items as { type?: unknown; nullable?: unknown };
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]).map(String);
  if (nullable === true && !types.includes("null")) types.push("null");
  return types.some((t) => t === "object" || t === "array") ? [] : types;
}

/** Ajv's type tests without `strictNumbers` (createAjv turns strict mode off). */
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}
