import { compareText } from "../issues.js";
import { getAtPointer, isPlainObject, splitPointer } from "../json-pointer.js";
import { discriminatorMapping, isMappingRef, replaceSubschemas } from "../spec/schema-keywords.js";
import { resolveRef, type SchemaResource, type SpecIndex } from "../spec/schema-refs.js";
import { COMPONENT_PREFIX } from "./component-ref.js";
import { caseFold } from "./names.js";

/** A schema as it will stand under `#/components/schemas/<name>`, every `$ref` pointing at a component. */
export type ComponentSchema = Record<string, unknown> | boolean;

export interface BundleRoot {
  readonly resource: SchemaResource;
  readonly name: string;
}

export interface SchemaBundle {
  /** Component name → schema, in code-unit order of the names. */
  readonly components: ReadonlyMap<string, ComponentSchema>;
  /** Component name → names it references directly. */
  readonly references: ReadonlyMap<string, readonly string[]>;
  /** Component name → where its schema lies in the specs, `file#pointer`. */
  readonly sources: ReadonlyMap<string, string>;
  /** The components with a `discriminator` in their schema (`mapDiscriminators` reads them). */
  readonly discriminated: ReadonlySet<string>;
}

/** Containers whose entries are hoisted into components when referenced, and dropped otherwise. */
const DROPPED_KEYWORDS = new Set(["$schema", "$defs", "definitions", "$comment"]);

/**
 * Turns the specs' schemas into OpenAPI components (OpenAPI 3.1 §4.8.7.1). Each flow root gets
 * the name it is given; every other `$ref` target, in a `$defs` or a shared file, becomes a
 * component named after where it lives: `acme.qa.Input.Address`, `_shared.money.Currency`.
 * Names stay distinct after case folding (`caseFold`), so code other generators write from the
 * document has one type per component: a name that would meet an earlier one, or one of
 * `reserved`, gets `_2`, `_3`, … Roots are named first, so they keep the names they are given.
 *
 * @example
 * bundleSchemas([{ resource: { relPath: "@acme/qa.json", root: "/input" }, name: "acme.qa.Input" }], index)
 */
export function bundleSchemas(
  roots: readonly BundleRoot[],
  index: SpecIndex,
  reserved: readonly string[] = [],
): SchemaBundle {
  const run: BundleRun = {
    index,
    rootNames: new Map(
      roots.map((root) => [`${root.resource.relPath}#${root.resource.root}`, root.name]),
    ),
    nameOf: new Map(),
    taken: new Set(reserved.map(caseFold)),
    queue: [],
    discriminated: new Set(),
  };
  for (const root of roots) claimName(run, root.resource, root.resource.root, root.name);
  const components = new Map<string, ComponentSchema>();
  const references = new Map<string, string[]>();
  const sources = new Map<string, string>();
  // The queue grows while it is walked: rewriting a schema claims the `$ref` targets it meets.
  for (let i = 0; i < run.queue.length; i++) {
    const item = run.queue[i];
    if (item === undefined) break;
    const name = run.nameOf.get(item.key) ?? "";
    const scope: RewriteScope = { run, item, refs: new Set() };
    const source = getAtPointer(index.files.get(item.resource.relPath), item.pointer);
    const rewritten = rewriteSchema(scope, source) as ComponentSchema;
    components.set(name, run.rootNames.has(item.key) ? sayRootIsObject(rewritten) : rewritten);
    references.set(name, [...scope.refs].sort(compareText));
    sources.set(name, item.key);
  }
  const sorted = [...components.keys()].sort(compareText);
  return {
    components: new Map(sorted.map((name) => [name, components.get(name) ?? {}])),
    references,
    sources,
    discriminated: run.discriminated,
  };
}

/** A schema to turn into a component: `key` is `file#pointer`. */
interface QueuedSchema {
  readonly key: string;
  readonly resource: SchemaResource;
  readonly pointer: string;
}

/** One bundleSchemas run's state: the names given so far and the schemas still to rewrite. */
interface BundleRun {
  readonly index: SpecIndex;
  /** `file#pointer` of each flow root → the name it is given. */
  readonly rootNames: ReadonlyMap<string, string>;
  /** `file#pointer` → component name. */
  readonly nameOf: Map<string, string>;
  /** The names given, and the reserved ones, case-folded. */
  readonly taken: Set<string>;
  readonly queue: QueuedSchema[];
  readonly discriminated: Set<string>;
}

/** Where a rewrite is: the run, the schema being rewritten, and the components it refers to. */
interface RewriteScope {
  readonly run: BundleRun;
  readonly item: QueuedSchema;
  readonly refs: Set<string>;
}

/** The component name of the schema at `pointer`: its name already, or `wanted` made distinct and queued. */
function claimName(
  run: BundleRun,
  resource: SchemaResource,
  pointer: string,
  wanted: string,
): string {
  const key = `${resource.relPath}#${pointer}`;
  const known = run.nameOf.get(key);
  if (known !== undefined) return known;
  let name = wanted;
  let folded = caseFold(name);
  for (let n = 2; run.taken.has(folded); n++) folded = caseFold((name = `${wanted}_${n}`));
  run.nameOf.set(key, name);
  run.taken.add(folded);
  run.queue.push({ key, resource, pointer });
  return name;
}

/**
 * `schema` as a component holds it: containers dropped, every reference pointing at a component.
 * What this leaves as it was is the spec's own object, not a copy: the model is read only, and
 * most subschemas (a property's `{ "type": "string" }`) hold no reference.
 */
function rewriteSchema(scope: RewriteScope, schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  // A blank description says nothing, and documentation tools show it as an empty block.
  const replaced = replaceSubschemas(
    schema,
    (sub) => rewriteSchema(scope, sub),
    (keyword, value) =>
      !DROPPED_KEYWORDS.has(keyword) && !(keyword === "description" && isBlank(value)),
  );
  const ref = typeof schema.$ref === "string" ? referToComponent(scope, schema.$ref) : undefined;
  const mapping = discriminatorMapping(schema);
  if (schema.discriminator !== undefined)
    scope.run.discriminated.add(scope.run.nameOf.get(scope.item.key) ?? "");
  if (ref === undefined && mapping === undefined) return replaced;
  const rewritten = { ...replaced };
  if (ref !== undefined) rewritten.$ref = ref;
  if (mapping !== undefined) {
    // OpenAPI 3.1 §4.8.25: mapping values are references too, and move with the schemas.
    const mapped = Object.fromEntries(
      Object.entries(mapping).map(([value, target]) => [
        value,
        isMappingRef(target) ? referToComponent(scope, target) : target,
      ]),
    );
    rewritten.discriminator = { ...(schema.discriminator as object), mapping: mapped };
  }
  return rewritten;
}

/** The component reference that replaces `ref`, claiming a name for its target. */
function referToComponent({ run, item, refs }: RewriteScope, ref: string): string {
  const resolved = resolveRef(ref, item.resource, run.index);
  if (!resolved.ok) throw new Error(`bug: unchecked $ref ${ref} in ${item.key}`);
  const { resource, target: found } = resolved;
  // Most references reach a schema named already: its name is not made again.
  const target =
    run.nameOf.get(`${resource.relPath}#${found.pointer}`) ??
    claimName(
      run,
      resource,
      found.pointer,
      componentNameFor(resource, found.pointer, run.rootNames),
    );
  refs.add(target);
  return `${COMPONENT_PREFIX}${target}`;
}

/**
 * A flow's input and output were checked to describe objects, some without saying `type`
 * (OpenAPI 3.0 style), some as object-or-null (a body is never null): saying `"object"` here
 * makes the types, validators and docs agree on it.
 */
function sayRootIsObject(schema: ComponentSchema): ComponentSchema {
  if (!isPlainObject(schema)) return schema;
  if (schema.type === undefined) return { type: "object", ...schema };
  if (Array.isArray(schema.type)) return { ...schema, type: "object" };
  return schema;
}

/** Every component reachable from `start`, itself included, in code-unit order. */
export function reachableComponents(bundle: SchemaBundle, start: readonly string[]): string[] {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length > 0) {
    const name = stack.pop() ?? "";
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...(bundle.references.get(name) ?? []));
  }
  return [...seen].sort(compareText);
}

function componentNameFor(
  resource: SchemaResource,
  pointer: string,
  rootNames: ReadonlyMap<string, string>,
): string {
  const stem =
    rootNames.get(`${resource.relPath}#${resource.root}`) ??
    resource.relPath
      .replace(/\.(json|ya?ml)$/i, "")
      .replace(/@/g, "")
      .split("/")
      .map(sanitize)
      .join(".");
  const tokens = splitPointer(pointer.slice(resource.root.length)).filter(
    (token) => token !== "$defs" && token !== "definitions",
  );
  return [stem, ...tokens.map(sanitize)].join(".");
}

function isBlank(value: unknown): boolean {
  return typeof value === "string" && value.trim() === "";
}

/** Component names may hold only `[A-Za-z0-9._-]` (OpenAPI 3.1 §4.8.7.1). */
function sanitize(token: string): string {
  return token.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
}
