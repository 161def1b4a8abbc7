import path from "node:path";
import type { IssueCode } from "../issues.js";
import { getAtPointer, isPlainObject, joinPointer } from "../json-pointer.js";
import { suggest } from "./describe-ajv-errors.js";
import { patternSupport } from "./pattern-flags.js";
import {
  KNOWN_KEYWORDS,
  discriminatorMapping,
  isMappingRef,
  UNSUPPORTED_KEYWORDS,
  subschemasOf,
} from "./schema-keywords.js";

/** A place in a spec file: the file (relative to the specs folder) and a JSON pointer into it. */
export interface SchemaLocation {
  readonly relPath: string;
  readonly pointer: string;
}

/** A schema resource: a flow's input or output (root "/input", "/output") or a whole shared file (root ""). */
export interface SchemaResource {
  readonly relPath: string;
  readonly root: string;
}

export interface SchemaFinding {
  readonly code: IssueCode;
  readonly relPath: string;
  readonly pointer: string;
  readonly message: string;
}

/** What a resolver needs to know about the files in the specs folder. */
export interface SpecIndex {
  /** Parsed value of every readable spec and shared file, by relPath. */
  readonly files: ReadonlyMap<string, unknown>;
  /** relPaths of flow spec files, which other files may not reference. */
  readonly flowFiles: ReadonlySet<string>;
  /** relPaths of files that exist but could not be parsed (already reported). */
  readonly brokenFiles: ReadonlySet<string>;
}

export type RefResolution =
  | { readonly ok: true; readonly target: SchemaLocation; readonly resource: SchemaResource }
  | {
      readonly ok: false;
      readonly code: IssueCode;
      readonly message: string;
      readonly quiet?: boolean;
    };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

type RefFailure = Extract<RefResolution, { ok: false }>;

/**
 * Resolves a `$ref` the way JSON Schema 2020-12 Core §8.2.3.1 does for relative references:
 * the part before `#` is a path relative to the file, `#` alone is the resource's own root
 * (for a flow, its input or output schema). Only JSON-pointer fragments are accepted.
 */
export function resolveRef(ref: string, from: SchemaResource, index: SpecIndex): RefResolution {
  const parts = splitRef(ref);
  if (!parts.ok) return parts;
  const file =
    parts.filePart === ""
      ? { ok: true as const, resource: from }
      : resolveRefFile(ref, parts.filePart, from, index);
  if (!file.ok) return file;
  return resolveFragment(ref, parts.fragment, file.resource, index);
}

/** A relative `$ref`'s file part and JSON-pointer fragment, each %-decoded. */
function splitRef(ref: string): { ok: true; filePart: string; fragment: string } | RefFailure {
  if (SCHEME.test(ref) || ref.startsWith("/")) {
    return {
      ok: false,
      code: "ref-not-relative",
      message: `$ref "${ref}" is not relative; put the schema in a shared file under the specs folder (name starting with "_") and reference it by relative path`,
    };
  }
  const hash = ref.indexOf("#");
  const filePart = decodeOrUndefined(decodeURI, hash === -1 ? ref : ref.slice(0, hash));
  const fragment = hash === -1 ? "" : decodeFragment(ref.slice(hash + 1));
  if (filePart === undefined || fragment === undefined) {
    return {
      ok: false,
      code: "ref-not-found",
      message: `$ref "${ref}" has a malformed %-escape; write the path and pointer plainly or escape "%" as "%25"`,
    };
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    return {
      ok: false,
      code: "unsupported-keyword",
      message: `$ref "${ref}" uses a plain-name fragment; point at the schema with a JSON pointer instead, such as "#/$defs/${fragment}"`,
    };
  }
  return { ok: true, filePart, fragment };
}

/**
 * The file a `$ref` in the file at `from` names, as `resolveRef` reads it (a `$ref` of a fragment
 * alone names `from`), whether or not it exists; undefined when the `$ref` cannot name a file.
 *
 * @example
 * refFile("../_shared/money.json#/$defs/Currency", "@acme/qa.json"); // "_shared/money.json"
 */
export function refFile(ref: string, from: string): string | undefined {
  const parts = splitRef(ref);
  if (!parts.ok) return undefined;
  return parts.filePart === "" ? from : joinRefPath(from, parts.filePart);
}

function joinRefPath(from: string, filePart: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), filePart));
}

/** The shared file a `$ref`'s file part names, relative to the referring file, as a resource. */
function resolveRefFile(
  ref: string,
  filePart: string,
  from: SchemaResource,
  index: SpecIndex,
): { ok: true; resource: SchemaResource } | RefFailure {
  if (filePart.split("/").includes("")) {
    return {
      ok: false,
      code: "ref-not-found",
      message: `$ref "${ref}" has an empty path segment ("//" or a trailing "/"); name the file with single slashes between folders`,
    };
  }
  const relPath = joinRefPath(from.relPath, filePart);
  if (relPath.startsWith("../") || relPath === "..") {
    return {
      ok: false,
      code: "ref-outside-specs",
      message: `$ref "${ref}" points outside the specs folder; move the schema into a shared file under it (name starting with "_")`,
    };
  }
  if (index.flowFiles.has(relPath)) {
    return {
      ok: false,
      code: "ref-to-flow-file",
      message: `$ref "${ref}" points into the flow spec ${relPath}; move the shared part to a file whose name starts with "_" (for example _shared/${path.posix.basename(relPath)}) and reference that from both flows`,
    };
  }
  if (index.brokenFiles.has(relPath))
    return { ok: false, code: "ref-not-found", message: "", quiet: true };
  if (!index.files.has(relPath)) {
    const known = [...index.files.keys()]
      .filter((p) => !index.flowFiles.has(p))
      .map((p) => path.posix.relative(path.posix.dirname(from.relPath), p));
    return {
      ok: false,
      code: "ref-not-found",
      message: `$ref "${ref}": file ${relPath} does not exist in the specs folder${suggest(filePart, known)}`,
    };
  }
  return { ok: true, resource: { relPath, root: "" } };
}

/** The schema a `$ref`'s fragment points at in `resource`, when there is one. */
function resolveFragment(
  ref: string,
  fragment: string,
  resource: SchemaResource,
  index: SpecIndex,
): RefResolution {
  const target: SchemaLocation = { relPath: resource.relPath, pointer: resource.root + fragment };
  const value = getAtPointer(index.files.get(resource.relPath), target.pointer);
  if (!isPlainObject(value) && typeof value !== "boolean") {
    return {
      ok: false,
      code: "ref-not-found",
      message: `$ref "${ref}": nothing at #${fragment} in ${resource.relPath}; check the pointer (definitions usually live under "#/$defs/<Name>")`,
    };
  }
  return { ok: true, target, resource };
}

/** One walk of a schema resource: what it found so far. */
interface ResourceWalk {
  readonly resource: SchemaResource;
  readonly index: SpecIndex;
  readonly findings: SchemaFinding[];
  readonly refs: SchemaResource[];
  readonly targets: RefTarget[];
}

/** Where a `$ref` leads: a schema in a resource. */
export interface RefTarget {
  readonly resource: SchemaResource;
  readonly pointer: string;
}

/**
 * Walks one schema resource: reports keywords nobody defines, keywords flowgen cannot bundle, and
 * `$ref`s that lead nowhere. Returns the resources it references so callers can check those too,
 * and where each of its `$ref`s leads (`findRefCycles` starts from there).
 */
export function checkSchemaResource(
  resource: SchemaResource,
  index: SpecIndex,
): { findings: SchemaFinding[]; refs: SchemaResource[]; targets: RefTarget[] } {
  const walk: ResourceWalk = { resource, index, findings: [], refs: [], targets: [] };
  const root = getAtPointer(index.files.get(resource.relPath), resource.root);
  checkSchema(walk, root, resource.root);
  return { findings: walk.findings, refs: walk.refs, targets: walk.targets };
}

function checkSchema(walk: ResourceWalk, schema: unknown, pointer: string): void {
  if (typeof schema === "boolean") return;
  if (!isPlainObject(schema)) return; // the meta-schema check reports non-schemas
  checkKeywords(walk, schema, pointer);
  walk.findings.push(
    ...checkPatterns(schema, pointer).map((finding) => ({
      ...finding,
      relPath: walk.resource.relPath,
    })),
  );
  checkRef(walk, schema, pointer);
  checkMapping(walk, schema, pointer);
  for (const sub of subschemasOf(schema, pointer)) checkSchema(walk, sub.schema, sub.pointer);
}

/** Keywords flowgen cannot bundle, and keywords nobody defines; `x-` keywords are the user's. */
function checkKeywords(walk: ResourceWalk, schema: Record<string, unknown>, pointer: string): void {
  const { relPath } = walk.resource;
  for (const keyword of Object.keys(schema)) {
    if (keyword.startsWith("x-")) continue;
    if (UNSUPPORTED_KEYWORDS.has(keyword)) {
      walk.findings.push({
        code: "unsupported-keyword",
        relPath,
        pointer: joinPointer(pointer, keyword),
        message: `"${keyword}" is not supported: flowgen bundles schemas by relative $ref with JSON pointers; remove it and reference the schema by its path`,
      });
    } else if (!KNOWN_KEYWORDS.has(keyword)) {
      walk.findings.push({
        code: "unknown-keyword",
        relPath,
        pointer: joinPointer(pointer, keyword),
        message:
          keyword === "<<"
            ? `"<<" is a YAML 1.1 merge key, which the YAML flowgen reads (1.2) does not merge: it stays a key of its own; write the keys out, or "$ref" a shared schema (with sibling keywords for what differs)`
            : `"${keyword}" is not a JSON Schema keyword${suggest(keyword, [...KNOWN_KEYWORDS])}; fix the spelling, or prefix custom keywords with "x-"`,
      });
    }
  }
}

function checkRef(walk: ResourceWalk, schema: Record<string, unknown>, pointer: string): void {
  const ref = schema.$ref;
  if (typeof ref !== "string") return;
  const failed = followRef(walk, ref, true);
  if (failed === undefined) return;
  walk.findings.push({
    code: failed.code,
    relPath: walk.resource.relPath,
    pointer: joinPointer(pointer, "$ref"),
    message: failed.message,
  });
}

/** A discriminator's mapping values that are references are followed like `$ref`s. */
function checkMapping(walk: ResourceWalk, schema: Record<string, unknown>, pointer: string): void {
  for (const [value, mappingRef] of Object.entries(discriminatorMapping(schema) ?? {})) {
    if (!isMappingRef(mappingRef)) continue;
    const failed = followRef(walk, mappingRef);
    if (failed === undefined) continue;
    walk.findings.push({
      code: failed.code,
      relPath: walk.resource.relPath,
      pointer: joinPointer(pointer, "discriminator", "mapping", value),
      message: failed.message.replace("$ref", "mapping"),
    });
  }
}

/**
 * Resolves a reference: one into another file joins the walk's `refs`, and a `$ref`'s target its
 * `targets`; a failure is returned unless quiet.
 */
function followRef(walk: ResourceWalk, ref: string, isRef = false): RefFailure | undefined {
  const resolved = resolveRef(ref, walk.resource, walk.index);
  if (resolved.ok) {
    if (resolved.resource.relPath !== walk.resource.relPath) walk.refs.push(resolved.resource);
    if (isRef) walk.targets.push({ resource: resolved.resource, pointer: resolved.target.pointer });
    return undefined;
  }
  return resolved.quiet ? undefined : resolved;
}

/**
 * `pattern` and `patternProperties` keys are ECMA-262 regular expressions (JSON Schema 2020-12
 * Validation §6.3.3, §4.3), compiled with the `u` flag where they take it. One that compiles only
 * without it is used without it (`non-unicode-pattern`, a warning by default); one that compiles
 * neither way is refused here, before anything downstream fails on it.
 */
function checkPatterns(
  schema: Record<string, unknown>,
  pointer: string,
): { code: IssueCode; pointer: string; message: string }[] {
  const patterns: { source: string; pointer: string }[] = [];
  if (typeof schema.pattern === "string")
    patterns.push({ source: schema.pattern, pointer: joinPointer(pointer, "pattern") });
  if (isPlainObject(schema.patternProperties)) {
    for (const key of Object.keys(schema.patternProperties))
      patterns.push({ source: key, pointer: joinPointer(pointer, "patternProperties", key) });
  }
  return patterns.flatMap(
    ({ source, pointer: at }): { code: IssueCode; pointer: string; message: string }[] => {
      const support = patternSupport(source);
      if (support.kind === "unicode") return [];
      if (support.kind === "without-unicode")
        return [
          {
            code: "non-unicode-pattern",
            pointer: at,
            message: `${JSON.stringify(source)} is a regular expression only without the "u" flag (with it: ${support.reason}); flowgen uses it without, as OpenAPI 3.0 tools did. To use it with the flag, drop the escapes the flag refuses (such as "\\-" outside brackets or "\\:", which mean "-" and ":")`,
          },
        ];
      return [
        {
          code: "invalid-pattern",
          pointer: at,
          message: `${JSON.stringify(source)} is not a valid regular expression (ECMAScript): ${support.reason}; fix it (in JSON, a backslash is written "\\\\")`,
        },
      ];
    },
  );
}

/**
 * A fragment's JSON pointer, each token %-decoded on its own, as Ajv reads it (and RFC 6901 §6 by
 * its escaping rules): an escaped slash (`%2F`) stays inside its token, written `~1`.
 */
function decodeFragment(fragment: string): string | undefined {
  const tokens: string[] = [];
  for (const segment of fragment.split("/")) {
    const token = decodeOrUndefined(decodeURIComponent, segment);
    if (token === undefined) return undefined;
    tokens.push(token.replaceAll("/", "~1"));
  }
  return tokens.join("/");
}

function decodeOrUndefined(decode: (text: string) => string, text: string): string | undefined {
  try {
    return decode(text);
  } catch {
    return undefined;
  }
}
