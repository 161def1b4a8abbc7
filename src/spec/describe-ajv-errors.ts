import type { ErrorObject } from "ajv";
import { closest, distance } from "fastest-levenshtein";
import type { IssueCode } from "../issues.js";
import { getAtPointer, joinPointer, unescapePointerToken } from "../json-pointer.js";

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
  const allowedValues = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const detail = allowedValues
    ? `${error.message}: ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
    : error.message;
  return {
    code: inSchema ? options.schemaCode : "invalid-value",
    pointer: at,
    message: `${lastToken(at)}${detail ?? "is invalid"}${inSchema ? " (JSON Schema 2020-12)" : ""}`,
  };
}

/** ` (did you mean "type"?)` when a known word is within two edits of `word`. */
export function suggest(word: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  const best = closest(word, [...candidates]);
  return distance(word, best) <= (word.length <= 3 ? 1 : 2) ? ` (did you mean "${best}"?)` : "";
}

function lastToken(pointer: string): string {
  const token = pointer.split("/").pop();
  return token ? `"${unescapePointerToken(token)}" ` : "";
}
