import { distance } from "fastest-levenshtein";
import type { Issue } from "../issues.js";
import { isPlainObject } from "../json-pointer.js";
import { KNOWN_KEYWORDS } from "./schema-keywords.js";

/** What a file's place in the specs folder says it is. */
export type SpecKind = "flow" | "shared";

/**
 * Whether a key is one a file of its kind has, or a near miss of one (a typo such as `ouput`, at
 * least four characters); undefined (no key) passes. Only files whose keys pass have their
 * problems quoted: a file linked or copied into a spec's place (a password file, a credentials
 * file) gets one problem that shows nothing of it, so a pull request cannot print a CI runner's
 * secrets. A file that does not parse is judged by its first key, the one key known then.
 *
 * @example
 * opensLike("flow", "input", SPEC_KEYS); // true
 * opensLike("flow", "root:x:0:0", SPEC_KEYS); // false
 */
export function opensLike(
  kind: SpecKind,
  firstKey: string | undefined,
  specKeys: readonly string[],
): boolean {
  if (firstKey === undefined) return true;
  if (kind === "shared" && (KNOWN_KEYWORDS.has(firstKey) || firstKey.startsWith("x-"))) return true;
  const known = kind === "flow" ? specKeys : [...KNOWN_KEYWORDS];
  if (known.includes(firstKey)) return true;
  return firstKey.length >= 4 && known.some((key) => distance(firstKey, key) <= 2);
}

/**
 * Whether a parsed file has the shape of its kind: a flow spec is a JSON object that holds `input`
 * or `output`, or whose every top-level key is a flow spec's or a near miss (`opensLike`); then its
 * other problems are reported in full (an unknown key by its name). A shared schema is a boolean or
 * an object whose every top-level key is a keyword or a near miss: a credentials file that opens
 * with `"type"` is not a schema for that.
 *
 * @example
 * looksLikeSpec("flow", { input: {}, output: {} }, SPEC_KEYS); // true
 */
export function looksLikeSpec(
  kind: SpecKind,
  value: unknown,
  specKeys: readonly string[],
): boolean {
  if (kind === "shared" && typeof value === "boolean") return true;
  if (!isPlainObject(value)) return false;
  if (kind === "flow" && (Object.hasOwn(value, "input") || Object.hasOwn(value, "output")))
    return true;
  return Object.keys(value).every((key) => opensLike(kind, key, specKeys));
}

/**
 * The one problem reported for a file that does not look like a spec: it names the file only.
 *
 * @example
 * notASpecIssue("flow", "specs/@acme/leak.yaml", SPEC_KEYS);
 */
export function notASpecIssue(kind: SpecKind, file: string, specKeys: readonly string[]): Issue {
  const message =
    kind === "flow"
      ? `is not a flow spec: a flow spec is a JSON object whose keys are ${specKeys.join(", ")}; flowgen shows nothing of a file that is not one. Move the file out of the specs folder, or, if it is a spec, keep to those keys`
      : 'is not a JSON Schema: a shared schema is true, false, or a JSON object whose keys are JSON Schema keywords (such as "type" or "$defs") or start with "x-"; flowgen shows nothing of a file that is not one. Move the file out of the specs folder, or, if it is a schema, keep to those keys';
  return { code: "not-a-spec-file", file, message };
}
