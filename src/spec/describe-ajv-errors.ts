import type { ErrorObject } from "ajv";
import { closest, distance } from "fastest-levenshtein";
import type { IssueCode } from "../issues.js";
import { getAtPointer, isPlainObject, joinPointer, unescapePointerToken } from "../json-pointer.js";

/** What an Ajv error means for a person: a code, the pointer to the bad value and what to do. */
export interface Finding {
  readonly code: IssueCode;
  readonly pointer: string;
  readonly message: string;
}

const JSON_SCHEMA_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];
/** Errors that only say "one of the branches below failed"; the branch errors say more. */
const COMPOSITE = new Set(["anyOf", "oneOf", "allOf", "if", "not", "$dynamicRef", "$ref"]);

/**
 * Turns Ajv's errors (from `allErrors: true`) into one finding per real problem: composite errors
 * are dropped when a more specific error sits at the same place, and an enum miss on `type`
 * (JSON Schema Validation §6.1.1) gets a spelling suggestion.
 *
 * @example
 * describeAjvErrors(validate.errors ?? [], value, { schemaCode: "invalid-schema", isSchemaPath: (p) => p.startsWith("/input") })
 */
export function describeAjvErrors(
  errors: readonly ErrorObject[],
  document: unknown,
  options: {
    schemaCode: IssueCode;
    isSchemaPath: (pointer: string) => boolean;
    allowedKeys?: (pointer: string) => readonly string[];
  },
): Finding[] {
  const paths = new Set(
    errors.filter((error) => !COMPOSITE.has(error.keyword)).map((error) => error.instancePath),
  );
  const enumPaths = new Set(
    errors.filter((error) => error.keyword === "enum").map((error) => error.instancePath),
  );
  const findings = new Map<string, Finding>();
  for (const error of errors) {
    const at = error.instancePath;
    if (COMPOSITE.has(error.keyword) && [...paths].some((p) => p === at || p.startsWith(`${at}/`)))
      continue;
    if (error.keyword === "type" && enumPaths.has(at)) continue;
    const finding = describeOne(error, document, options);
    findings.set(`${finding.pointer}\u0000${finding.message}`, finding);
  }
  return [...findings.values()];
}

function describeOne(
  error: ErrorObject,
  document: unknown,
  options: {
    schemaCode: IssueCode;
    isSchemaPath: (pointer: string) => boolean;
    allowedKeys?: (pointer: string) => readonly string[];
  },
): Finding {
  const at = error.instancePath;
  const value = getAtPointer(document, at);
  const inSchema = options.isSchemaPath(at);
  if (error.keyword === "additionalProperties" && !inSchema) {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = options.allowedKeys?.(at) ?? [];
    return {
      code: "unknown-key",
      pointer: joinPointer(at, key),
      message: `unknown key "${key}"${suggest(key, allowed)}; allowed keys: ${allowed.join(", ")}`,
    };
  }
  if (error.keyword === "required" && !inSchema) {
    const key = String((error.params as { missingProperty: string }).missingProperty);
    return { code: "missing-key", pointer: at, message: `missing required key "${key}"; add it` };
  }
  if (error.keyword === "enum" && at.endsWith("/type") && typeof value === "string") {
    return {
      code: options.schemaCode,
      pointer: at,
      message: `"${value}" is not a JSON Schema type${suggest(value, JSON_SCHEMA_TYPES)}; use one of: ${JSON_SCHEMA_TYPES.join(", ")}`,
    };
  }
  if (error.keyword === "enum" && at.endsWith("/type") && Array.isArray(value)) {
    const bad = value.filter((item) => !JSON_SCHEMA_TYPES.includes(String(item))).map(String);
    const hint = bad.length === 1 ? suggest(bad[0] ?? "", JSON_SCHEMA_TYPES) : "";
    return {
      code: options.schemaCode,
      pointer: at,
      message: `${bad.map((b) => `"${b}"`).join(", ")} ${bad.length === 1 ? "is not a JSON Schema type" : "are not JSON Schema types"}${hint}; use: ${JSON_SCHEMA_TYPES.join(", ")}`,
    };
  }
  const older = error.keyword === "type" ? olderDraftForm(at, value, document) : undefined;
  if (inSchema && older !== undefined)
    return { code: options.schemaCode, pointer: at, message: older };
  if (!inSchema && error.keyword === "type" && /^\/examples\/\d+$/.test(at))
    return {
      code: "invalid-value",
      pointer: at,
      message: `example ${at.slice("/examples/".length)}${NOT_AN_EXAMPLE}`,
    };
  const allowedValues = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const types = (error.params as { type?: unknown }).type;
  const detail = allowedValues
    ? `${error.message}: ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
    : error.keyword === "type" && (typeof types === "string" || Array.isArray(types))
      ? `must be ${String(types).split(",").join(" or ")}`
      : error.message;
  return {
    code: inSchema ? options.schemaCode : "invalid-value",
    pointer: at,
    message: `${subject(at, document)}${detail ?? "is invalid"}${inSchema ? " (JSON Schema 2020-12)" : ""}`,
  };
}

const NOT_AN_EXAMPLE =
  ' is not an object; write each example as { "name": "…", "input": {…}, "output": {…} } (the name is optional)';

/**
 * What to write in JSON Schema 2020-12 for a keyword in the form older drafts gave it, which the
 * 2020-12 meta-schema refuses by type alone: draft-07's tuple `items: [...]` (2020-12 Core
 * §10.3.1.1 names it `prefixItems`) and draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum`
 * (a number since draft-06: Validation §6.2.3, §6.2.5).
 */
function olderDraftForm(at: string, value: unknown, document: unknown): string | undefined {
  if (at.endsWith("/items") && Array.isArray(value))
    return `"items" is a list, the tuple form of draft-07 and earlier; in JSON Schema 2020-12 the list is "prefixItems": rename "items" to "prefixItems" (and an "additionalItems" beside it to "items")`;
  const exclusive = /\/exclusive(Minimum|Maximum)$/.exec(at)?.[1];
  if (exclusive === undefined || typeof value !== "boolean") return undefined;
  const keyword = `exclusive${exclusive}`;
  const bound = exclusive.toLowerCase();
  if (!value)
    return `"${keyword}": false is draft-04's form, and says nothing in JSON Schema 2020-12; remove it ("${bound}" stays inclusive)`;
  const parent = getAtPointer(document, at.slice(0, at.lastIndexOf("/")));
  const limit = isPlainObject(parent) ? parent[bound] : undefined;
  return typeof limit === "number"
    ? `"${keyword}": true is draft-04's form; in JSON Schema 2020-12 "${keyword}" holds the bound itself: replace "${bound}": ${limit} and "${keyword}": true with "${keyword}": ${limit}`
    : `"${keyword}": true is draft-04's form; in JSON Schema 2020-12 "${keyword}" holds the bound itself: write "${keyword}": <the bound>`;
}

/** YAML 1.1's words for true and false (y, yes, on; n, no, off), by their lowercase spelling. */
const YAML_11_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...["y", "yes", "on"].map((word) => [word, true] as const),
  ...["n", "no", "off"].map((word) => [word, false] as const),
]);

/**
 * What to write for a YAML 1.1 word for a boolean (`no`, `yes`, `on`, `off`, …) where a value
 * fails a schema that wants a boolean: YAML 1.2, which flowgen reads, reads those words as
 * strings, and files written for YAML 1.1 tools still hold them. Undefined for anything else.
 *
 * @example
 * yamlBooleanHint("@acme/qa.yaml", "no", { type: "boolean" }); // 'YAML 1.2 reads no as the string "no" …; write false'
 */
export function yamlBooleanHint(
  relPath: string,
  value: unknown,
  params: Record<string, unknown>,
): string | undefined {
  if (!/\.ya?ml$/i.test(relPath) || typeof value !== "string") return undefined;
  const meant = YAML_11_BOOLEANS.get(value.toLowerCase());
  const wanted = Array.isArray(params.type)
    ? params.type.map(String)
    : String(params.type).split(",");
  if (meant === undefined || !wanted.includes("boolean")) return undefined;
  return `YAML 1.2 reads ${value} as the string "${value}", not as ${meant} (YAML 1.1 did); write ${meant}`;
}

/** ` (did you mean "type"?)` when a known word is within two edits of `word`. */
export function suggest(word: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  const best = closest(word, [...candidates]);
  return distance(word, best) <= (word.length <= 3 ? 1 : 2) ? ` (did you mean "${best}"?)` : "";
}

/** What a message is about: the key it names (`"type" `), an item of a list by its place (`item 2 `). */
function subject(pointer: string, document: unknown): string {
  const cut = pointer.lastIndexOf("/");
  const token = pointer.slice(cut + 1);
  if (cut < 0 || token === "") return "";
  if (Array.isArray(getAtPointer(document, pointer.slice(0, cut)))) return `item ${token} `;
  return `"${unescapePointerToken(token)}" `;
}
