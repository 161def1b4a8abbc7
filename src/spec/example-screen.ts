import { randomBytes } from "node:crypto";
import { dereference, format as cfworkerFormats, validate } from "@cfworker/json-schema";
import type { Schema } from "@cfworker/json-schema";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { isPlainObject, splitPointer } from "../json-pointer.js";
import { fileUri } from "./file-uri.js";
import { restateFormats } from "./number-formats.js";
import { childSchemas, subschemaAt } from "./schema-keywords.js";
import { resolveRef, type SchemaResource, type SpecIndex } from "./schema-refs.js";

/**
 * Says whether a value passes a flow's input or output schema without compiling a validator:
 * `true` means it passes, `false` that it fails or that the screen cannot tell, and Ajv, the
 * checks' authority, compiles the flow and decides (with its messages). Compiling is most of what
 * checking a flow's examples costs, and each flow's schemas are compiled for a few values at most.
 */
export type ExampleScreen = (relPath: string, part: "input" | "output", value: unknown) => boolean;

/**
 * Keywords whose meaning in @cfworker/json-schema differs from Ajv's in ways that could let a
 * value through that Ajv refuses: `$dynamicRef` (cfworker knows only 2019-09's `$recursiveRef`;
 * the spec checks refuse it, but the screen does not lean on that) and `multipleOf` (cfworker
 * allows a float tolerance of its own, Ajv one of 1e-9), and ajv-formats' `formatMaximum` and its kin, which cfworker
 * does not know. Where cfworker differs the other way, it refuses more, and
 * Ajv decides. A schema with any of them, or with a property named `__proto__` (which Ajv reads
 * through `schemaForAjv`), goes to Ajv.
 */
const AJV_ONLY = [
  "$dynamicRef",
  "$dynamicAnchor",
  "multipleOf",
  // ajv-formats' keywords (its `keywords` option, on in the checks' Ajv); cfworker knows none.
  "formatMaximum",
  "formatMinimum",
  "formatExclusiveMaximum",
  "formatExclusiveMinimum",
];

/** Where Ajv's format definitions sit in cfworker's table: a name no schema uses. */
const FORMAT_PREFIX = "flowgen-ajv-formats:";

/**
 * Builds the screen for the given flows' schemas and every shared schema file. Each `$ref` in the
 * screen's copies is resolved as the rest of flowgen resolves it (`resolveRef`, the same relative
 * resolution Ajv makes against `fileUri`) and names its target in cfworker's table of schemas.
 * Only `$ref` targets go in the table: cfworker's `dereference` enters every subschema of every
 * flow under its own URI, and that was most of what building the screen cost. Formats are checked
 * with ajv-formats' own definitions (the ones Ajv uses), registered in cfworker's table under names
 * of their own; cfworker's built-in formats are never used, since some accept what ajv-formats
 * refuses.
 *
 * @example
 * const screen = createExampleScreen(index, ["@acme/qa.json"]);
 * screen("@acme/qa.json", "input", { question: "Why?" }); // true
 */
export function createExampleScreen(index: SpecIndex, flows: Iterable<string>): ExampleScreen {
  registerAjvFormats();
  const linker = new RefLinker(index);
  for (const [relPath, value] of index.files) {
    if (index.flowFiles.has(relPath) || !isPlainObject(value)) continue;
    // A shared file the screen cannot read as Ajv does could be reached by any flow.
    if (!canScreen(value)) return () => false;
    linker.add({ relPath, root: "" }, value);
  }
  if (!linker.linkAll()) return () => false;
  const screened = new Map<string, Schema>();
  for (const relPath of flows) {
    const value = index.files.get(relPath);
    if (!isPlainObject(value)) continue;
    for (const part of ["input", "output"] as const) {
      const schema = value[part];
      if (!isPlainObject(schema) || !canScreen(schema)) continue;
      const copy = linker.add({ relPath, root: `/${part}` }, schema);
      if (linker.link(copy, { relPath, root: `/${part}` }))
        screened.set(fileUri(relPath, part), copy);
    }
  }
  return (relPath, part, value) => {
    const schema = screened.get(fileUri(relPath, part));
    if (schema === undefined) return false;
    try {
      return validate(value, schema, "2020-12", linker.lookup, true).valid;
    } catch {
      // A `$ref` the links did not reach, or a pattern that compiles only without the u flag.
      return false;
    }
  };
}

/**
 * The screen's copies of schema resources, and cfworker's table of the schemas their `$ref`s
 * point at. Linking a copy replaces each `$ref` in it with the name of its target in the table, a
 * name no spec can write (it holds a nonce), so that a `$ref` the links missed finds nothing and
 * the screen leaves its value to Ajv. A target must be a subschema of its resource's copy: one
 * inside a value (`default`, an `x-` keyword) is the spec's own object, its formats not restated.
 */
class RefLinker {
  readonly lookup: Record<string, Schema | boolean> = Object.create(null) as Record<string, Schema>;
  /** By `relPath` and root, apart by a character no path holds. */
  private readonly copies = new Map<string, { resource: SchemaResource; copy: Schema }>();
  private readonly prefix = `flowgen-screen-${randomBytes(8).toString("hex")}:`;

  constructor(private readonly index: SpecIndex) {}

  /** Keeps the screen's copy of `resource`, whose schema is `schema`. */
  add(resource: SchemaResource, schema: Record<string, unknown>): Schema {
    const copy = screenCopy(schema);
    this.copies.set(placeKey(resource.relPath, resource.root), { resource, copy });
    return copy;
  }

  /** Links every copy kept so far: false when one holds a `$ref` that leads nowhere the screen knows. */
  linkAll(): boolean {
    for (const { resource, copy } of this.copies.values())
      if (!this.link(copy, resource)) return false;
    return true;
  }

  /** Links `copy`, the copy of `resource`: false when one of its `$ref`s leads nowhere the screen knows. */
  link(copy: Schema, resource: SchemaResource): boolean {
    const stack: unknown[] = [copy];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (!isPlainObject(node)) continue;
      if (typeof node.$ref === "string") {
        const name = this.targetName(node.$ref, resource);
        if (name === undefined) return false;
        node.$ref = name;
      }
      stack.push(...childSchemas(node));
    }
    return true;
  }

  private targetName(ref: string, from: SchemaResource): string | undefined {
    const resolved = resolveRef(ref, from, this.index);
    if (!resolved.ok) return undefined;
    const { resource, target } = resolved;
    const name = `${this.prefix}${placeKey(target.relPath, target.pointer)}`;
    if (this.lookup[name] !== undefined) return name;
    const { copy } = this.copies.get(placeKey(resource.relPath, resource.root)) ?? {};
    const found = subschemaAt(copy, splitPointer(target.pointer.slice(resource.root.length)));
    if (!isPlainObject(found) && typeof found !== "boolean") return undefined;
    this.lookup[name] = found;
    return name;
  }
}

function placeKey(relPath: string, pointer: string): string {
  return `${relPath}\0${pointer}`;
}

/**
 * Says whether every one of `values` passes `schema`, a schema without `$ref`, as the example
 * screen does: `true` means they all pass, `false` that one fails or that the screen cannot tell,
 * and Ajv decides. The spec checks' `enum`, `const` and `default` values nearly always pass: most
 * runs then need no Ajv at all.
 *
 * @example
 * screenValues({ type: "string", maxLength: 3 }, ["abc"]); // true
 */
export function screenValues(schema: unknown, values: readonly unknown[]): boolean {
  if (!isPlainObject(schema) || !canScreen(schema) || JSON.stringify(schema).includes('"$ref"'))
    return false;
  registerAjvFormats();
  try {
    const copy = screenCopy(schema);
    const lookup = dereference(copy);
    return values.every((value) => validate(value, copy, "2020-12", lookup, true).valid);
  } catch {
    // A pattern that compiles only without the u flag.
    return false;
  }
}

/** Any of `AJV_ONLY`, or a property named `__proto__`, anywhere in the schema's text. */
const NOT_SCREENED = new RegExp(
  `"(?:${[...AJV_ONLY, "__proto__"].map((word) => word.replace("$", "\\$")).join("|")})"`,
);

function canScreen(schema: Record<string, unknown>): boolean {
  return !NOT_SCREENED.test(JSON.stringify(schema));
}

/**
 * A copy of every schema object in `schema`, which the screen's links change: the spec's own
 * values stay as they are. Each `format` names Ajv's definition instead; the number formats become the checks
 * ajv-formats makes of numbers, and formats that accept anything are dropped.
 */
function screenCopy(schema: Record<string, unknown>): Schema {
  return restateFormats(schema, (format) =>
    isStringFormat(format) ? `${FORMAT_PREFIX}${format}` : undefined,
  ) as Schema;
}

type FormatDefinition = (typeof fullFormats)[keyof typeof fullFormats];

function isStringFormat(name: string): boolean {
  const definition = Object.hasOwn(fullFormats, name)
    ? (fullFormats as Record<string, FormatDefinition>)[name]
    : undefined;
  return stringTest(definition) !== undefined;
}

/** The test ajv-formats makes of a string, or undefined for formats that check no string. */
function stringTest(
  definition: FormatDefinition | undefined,
): ((value: string) => boolean) | undefined {
  if (definition === undefined || typeof definition === "boolean") return undefined;
  // Ajv reads a string definition as a pattern's source.
  if (typeof definition === "string") return stringTest(new RegExp(definition, "u"));
  if (definition instanceof RegExp) return (value) => definition.test(value);
  if (typeof definition === "function") return definition;
  if ("type" in definition && definition.type === "number") return undefined;
  if ("async" in definition && definition.async === true) return undefined;
  return stringTest(definition.validate as FormatDefinition);
}

/**
 * Adds ajv-formats' definitions to cfworker's format table under prefixed names. Only names no
 * schema uses are added, so anyone else's use of cfworker sees its table as it was.
 */
function registerAjvFormats(): void {
  const table = cfworkerFormats as Record<string, (value: string) => boolean>;
  for (const [name, definition] of Object.entries(fullFormats)) {
    const test = stringTest(definition);
    if (test !== undefined) table[`${FORMAT_PREFIX}${name}`] ??= test;
  }
}
