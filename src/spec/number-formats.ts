import { isPlainObject } from "../json-pointer.js";
import { mapSubschemas } from "./schema-keywords.js";

/**
 * ajv-formats' number formats that check something, as schemas of numbers. Ajv applies them to
 * numbers only: `restateFormats` lets other values through.
 */
const NUMBER_FORMATS: Readonly<Record<string, Record<string, unknown>>> = {
  int32: { type: "integer", minimum: -(2 ** 31), maximum: 2 ** 31 - 1 },
  int64: { type: "integer" },
};

/** ajv-formats' number formats that accept every number. */
const ANY_NUMBER: ReadonlySet<string> = new Set(["float", "double"]);

/**
 * A copy of `schema` for a validator that knows fewer formats than Ajv, or knows them otherwise:
 * each number format becomes the schema that checks what Ajv checks, and each other format what
 * `stringFormat` names it (undefined: left out, as Ajv leaves formats it does not know).
 *
 * @example
 * restateFormats({ type: "integer", format: "int32" }, () => undefined);
 * // { type: "integer", allOf: [{ type: "integer", minimum: -2147483648, maximum: 2147483647 }] }
 */
export function restateFormats(
  schema: unknown,
  stringFormat: (name: string) => string | undefined,
): unknown {
  if (!isPlainObject(schema)) return schema;
  const copy = mapSubschemas(schema, (sub) => restateFormats(sub, stringFormat));
  if (typeof copy.format !== "string") return copy;
  const { format, ...rest } = copy;
  if (ANY_NUMBER.has(format)) return rest;
  if (Object.hasOwn(NUMBER_FORMATS, format)) {
    const check = NUMBER_FORMATS[format];
    // A schema that allows only numbers takes the check as it is (a validator may refuse a branch
    // no value can take); any other lets the values that are not numbers through.
    const numbers = onlyNumbers(rest.type)
      ? check
      : { anyOf: [{ not: { type: "number" } }, check] };
    return { ...rest, allOf: [...asArray(rest.allOf), numbers] };
  }
  const named = stringFormat(format);
  return named === undefined ? rest : { ...rest, format: named };
}

/** Whether a `type` keyword allows numbers only. */
function onlyNumbers(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((one) => one === "integer" || one === "number");
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
