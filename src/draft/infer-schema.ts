import type { ValidateFunction } from "ajv";
import { createCompoundSchema, type Schema } from "genson-js";
import { isPlainObject } from "../json-pointer.js";
import { createAjv } from "../spec/ajv.js";

/** Formats recognised in sample strings, in the order they are tried. */
const FORMATS = ["uuid", "date-time", "email", "uri"] as const;
/** More distinct values than this and a string is not drafted as an enum. */
const MAX_ENUM_VALUES = 20;
/**
 * genson-js keeps properties in plain objects, where a property named like one of Object's own
 * (`constructor`, `toString`) collides with the prototype. Every key crosses it with this prefix,
 * which no prototype property has, and loses it on the way back.
 */
const KEY_PREFIX = "#";

export interface InferOptions {
  /** Draft an enum for strings whose values repeat across samples (at most 20 distinct). */
  readonly enums: boolean;
}

/** Checks a string against each recognised format, as flowgen's own checks (Ajv with ajv-formats) do. */
export type FormatCheckers = ReadonlyMap<(typeof FORMATS)[number], ValidateFunction>;

/**
 * @example
 * const formats = createFormatCheckers();
 */
export function createFormatCheckers(): FormatCheckers {
  const ajv = createAjv({ optimize: false });
  return new Map(FORMATS.map((format) => [format, ajv.compile({ type: "string", format })]));
}

/**
 * A JSON Schema describing every one of `samples`: genson-js unions the types seen at each place
 * (integers and numbers as number, mixed kinds as a type list or `anyOf`), then each place is
 * refined from the values seen there: `required` lists the properties present in every object,
 * a format is set when every string there has it (uuid, date-time, email, uri), and with
 * `enums` repeated strings become an enum.
 *
 * @example
 * inferSchema([{ id: "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00", n: 1 }, { id: "…", n: 1.5, note: null }], { enums: false }, formats);
 * // { type: "object", properties: { id: { type: "string", format: "uuid" }, n: { type: "number" }, note: { type: "null" } }, required: ["id", "n"] }
 */
export function inferSchema(
  samples: readonly unknown[],
  options: InferOptions,
  formats: FormatCheckers,
): Record<string, unknown> {
  const drafted = createCompoundSchema(samples.map(prefixKeys));
  return refineSchema(drafted, samples, options, formats);
}

function refineSchema(
  schema: Schema,
  values: readonly unknown[],
  options: InferOptions,
  formats: FormatCheckers,
): Record<string, unknown> {
  if (schema.anyOf !== undefined)
    return {
      anyOf: schema.anyOf.map((branch) =>
        refineSchema(branch, values.filter(matchesType(branch)), options, formats),
      ),
    };
  const refined: Record<string, unknown> = { type: schema.type };
  const strings = values.filter((value): value is string => typeof value === "string");
  const format =
    strings.length > 0 ? FORMATS.find((name) => hasFormat(name, strings, formats)) : undefined;
  if (format !== undefined) refined.format = format;
  else if (options.enums && typeNames(schema).join() === "string")
    Object.assign(refined, draftEnum(strings));
  if (schema.properties !== undefined) {
    const objects = values.filter(isPlainObject);
    const entries = Object.entries(schema.properties).map(([prefixed, sub]) => {
      const key = prefixed.slice(KEY_PREFIX.length);
      const seen = objects
        .filter((object) => Object.hasOwn(object, key))
        .map((object) => object[key]);
      return [key, refineSchema(sub, seen, options, formats)] as const;
    });
    refined.properties = Object.fromEntries(entries);
    const required = entries
      .map(([key]) => key)
      .filter((key) => objects.every((object) => Object.hasOwn(object, key)));
    if (required.length > 0) refined.required = required;
  }
  if (schema.items !== undefined) {
    const items = values.filter(Array.isArray).flat() as unknown[];
    refined.items = refineSchema(schema.items, items, options, formats);
  }
  return refined;
}

function hasFormat(
  name: (typeof FORMATS)[number],
  strings: readonly string[],
  formats: FormatCheckers,
): boolean {
  const check = formats.get(name);
  // ajv-formats takes "urn:x" or "a:b" for a URI too: only absolute URLs with an authority count, so ids with colons stay plain strings.
  const plausible =
    name === "uri" ? (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text) : () => true;
  return check !== undefined && strings.every((text) => plausible(text) && check(text));
}

/** The distinct values, sorted by code unit, when some repeat and there are few of them. */
function draftEnum(strings: readonly string[]): { enum?: string[] } {
  const distinct = [...new Set(strings)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return distinct.length < strings.length && distinct.length <= MAX_ENUM_VALUES
    ? { enum: distinct }
    : {};
}

/** Whether a value is of a kind an anyOf branch (as genson-js makes them: one type or a list) takes. */
function matchesType(branch: Schema): (value: unknown) => boolean {
  const types = typeNames(branch);
  return (value) => {
    const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return types.some(
      (type) =>
        type === kind ||
        (kind === "number" &&
          (type === "number" || (type === "integer" && Number.isInteger(value)))),
    );
  };
}

/** genson-js's type (an enum member or a list of them) as plain names. */
function typeNames(schema: Schema): string[] {
  const type: unknown = schema.type;
  return (Array.isArray(type) ? type : type === undefined ? [] : [type]).map(String);
}

function prefixKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prefixKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [`${KEY_PREFIX}${key}`, prefixKeys(item)]),
  );
}
