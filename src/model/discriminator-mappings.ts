import { isPlainObject, splitPointer } from "../json-pointer.js";
import { replaceSubschemas, setOwn } from "../spec/schema-keywords.js";
import type { ComponentSchema } from "./bundle-schemas.js";
import { COMPONENT_PREFIX, componentName } from "./component-ref.js";

/**
 * Where a `discriminator`'s `mapping` leaves a schema out, OpenAPI's implicit value for it is its
 * component name, and bundling renames the specs' schemas (`$defs/Cat` becomes
 * `acme.pets.Input.Cat`): the value a spec's author meant would then be refused by the document,
 * and by the types made from it. Each schema left out is mapped here, explicitly, to the value it
 * states itself (its property's `const`, or an `enum` of one, through its `allOf` and `$ref` too),
 * else to its name in the spec (`Cat`): the schemas of a discriminator's `oneOf` and `anyOf`, and
 * the components that extend a discriminated base (`allOf: [{ $ref: base }, …]`). Changed
 * components are copies; the rest are the bundle's own. `sources`: component name → `file#pointer`;
 * `discriminated`: the components with a discriminator in them (all, unless said).
 *
 * @example
 * const components = mapDiscriminators(bundle.components, bundle.sources);
 */
export function mapDiscriminators(
  components: ReadonlyMap<string, ComponentSchema>,
  sources: ReadonlyMap<string, string>,
  discriminated: ReadonlySet<string> = new Set(components.keys()),
): Map<string, ComponentSchema> {
  const scope: MappingScope = { components, sources };
  const mapped = new Map(components);
  for (const name of discriminated) {
    const schema = components.get(name);
    if (schema !== undefined) mapped.set(name, mapBranches(scope, schema));
  }
  mapExtending(scope, mapped);
  return mapped;
}

interface MappingScope {
  readonly components: ReadonlyMap<string, ComponentSchema>;
  readonly sources: ReadonlyMap<string, string>;
}

/** `schema` with each discriminator in it (its own and its subschemas') mapping its branches. */
function mapBranches(scope: MappingScope, schema: unknown): ComponentSchema {
  if (!isPlainObject(schema)) return schema as ComponentSchema;
  const replaced = replaceSubschemas(schema, (sub) => mapBranches(scope, sub));
  const { discriminator } = replaced;
  if (!isPlainObject(discriminator)) return replaced;
  const branches = [replaced.oneOf, replaced.anyOf].flatMap((list): unknown[] =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  const refs = branches.flatMap((branch) =>
    isPlainObject(branch) && typeof branch.$ref === "string" ? [branch.$ref] : [],
  );
  const mapping = completeMapping(scope, discriminator, refs);
  return mapping === undefined
    ? replaced
    : { ...replaced, discriminator: { ...discriminator, mapping } };
}

/** Maps the components that extend a discriminated component, in that base's discriminator. */
function mapExtending(scope: MappingScope, mapped: Map<string, ComponentSchema>): void {
  const extending = new Map<string, string[]>();
  for (const [name, schema] of mapped) {
    const parts = isPlainObject(schema) && Array.isArray(schema.allOf) ? schema.allOf : [];
    for (const part of parts as unknown[]) {
      const base = isPlainObject(part) ? componentName(part.$ref) : undefined;
      if (base === undefined) continue;
      const known = extending.get(base);
      if (known === undefined) extending.set(base, [name]);
      else known.push(name);
    }
  }
  for (const [base, names] of extending) {
    const schema = mapped.get(base);
    const discriminator = isPlainObject(schema) ? schema.discriminator : undefined;
    if (!isPlainObject(schema) || !isPlainObject(discriminator)) continue;
    // A base that lists its schemas in a oneOf or anyOf has them mapped there; one that extends
    // it only narrows it (with required names, say), and takes the base's values.
    if (schema.oneOf !== undefined || schema.anyOf !== undefined) continue;
    const refs = names.map((name) => `${COMPONENT_PREFIX}${name}`);
    const mapping = completeMapping(scope, discriminator, refs);
    if (mapping !== undefined)
      mapped.set(base, { ...schema, discriminator: { ...discriminator, mapping } });
  }
}

/**
 * The discriminator's mapping with an entry for each of `refs` it leaves out: first the values the
 * schemas state, then, for those that state nothing of the property, their names in the spec. A
 * value an entry has already is not taken again. A schema that allows several values takes its
 * spec name when that is one of them, and is left out otherwise (openapi-typescript types a schema
 * by one value). An entry the spec wrote with a bare name (a
 * component name in OpenAPI) that is a schema's name in the spec is pointed at its component.
 * Undefined when nothing changes.
 */
function completeMapping(
  scope: MappingScope,
  discriminator: Record<string, unknown>,
  refs: readonly string[],
): Record<string, unknown> | undefined {
  const { propertyName } = discriminator;
  if (typeof propertyName !== "string") return undefined;
  const names = new Map(refs.map((ref) => [specName(scope, componentName(ref) ?? ""), ref]));
  const written = isPlainObject(discriminator.mapping) ? discriminator.mapping : {};
  const mapping: Record<string, unknown> = {};
  for (const [value, target] of Object.entries(written))
    setOwn(mapping, value, typeof target === "string" ? (names.get(target) ?? target) : target);
  const mapped = new Set(Object.values(mapping));
  const stated = refs.map((ref) => statedValue(scope, componentOf(scope, ref), propertyName));
  const add = (ref: string, value: string | undefined): void => {
    if (value === undefined || mapped.has(ref) || Object.hasOwn(mapping, value)) return;
    setOwn(mapping, value, ref);
    mapped.add(ref);
  };
  refs.forEach((ref, i) => add(ref, single(stated[i] ?? NOTHING)));
  // A schema that allows anything, or several values its spec name is one of, takes that name.
  refs.forEach((ref, i) => {
    const name = specName(scope, componentName(ref) ?? "");
    const values = stated[i]?.values;
    if (values === undefined || values.has(name)) add(ref, name);
  });
  return JSON.stringify(mapping) === JSON.stringify(written) ? undefined : mapping;
}

/**
 * What a schema allows the discriminator's property to be: anything (it says nothing), or the
 * values of its `const`s and `enum`s that all its parts allow.
 */
interface Stated {
  readonly values?: ReadonlySet<unknown> | undefined;
}
const NOTHING: Stated = {};

/** The one string value a schema allows, if it allows one. */
function single(stated: Stated): string | undefined {
  const [value] = stated.values ?? [];
  return stated.values?.size === 1 && typeof value === "string" ? value : undefined;
}

function componentOf(scope: MappingScope, ref: string): unknown {
  const name = componentName(ref);
  return name === undefined ? undefined : scope.components.get(name);
}

/**
 * What a schema allows `propertyName` to be (`Stated`): its own property's `const` or `enum`,
 * narrowed by each schema it is made of (its `$ref`, its `allOf`), as an `allOf` is. `seen`: the
 * components on the way, so a cycle ends.
 */
function statedValue(
  scope: MappingScope,
  schema: unknown,
  propertyName: string,
  seen: Set<string> = new Set(),
): Stated {
  if (!isPlainObject(schema)) return NOTHING;
  let allowed = propertyValue(schema.properties, propertyName);
  const parts = Array.isArray(schema.allOf) ? [...(schema.allOf as unknown[])] : [];
  const target = componentName(schema.$ref);
  if (target !== undefined && !seen.has(target)) {
    seen.add(target);
    parts.push(scope.components.get(target));
  }
  for (const part of parts) allowed = both(allowed, statedValue(scope, part, propertyName, seen));
  return allowed;
}

/** What two schemas allow together. */
function both(a: Stated, b: Stated): Stated {
  if (a.values === undefined) return b;
  if (b.values === undefined) return a;
  const other = b.values;
  return { values: new Set([...a.values].filter((value) => other.has(value))) };
}

/** What a property's schema allows: its `const`, or the values of its `enum`; else anything. */
function propertyValue(properties: unknown, propertyName: string): Stated {
  const property =
    isPlainObject(properties) && Object.hasOwn(properties, propertyName)
      ? properties[propertyName]
      : undefined;
  if (!isPlainObject(property)) return NOTHING;
  if (Object.hasOwn(property, "const")) return { values: new Set([property.const]) };
  return Array.isArray(property.enum) ? { values: new Set(property.enum as unknown[]) } : NOTHING;
}

/** The name a component's schema has in its spec: its key in `$defs`, or its file's name. */
function specName(scope: MappingScope, name: string): string | undefined {
  if (name === "") return undefined;
  const source = scope.sources.get(name);
  if (source === undefined) return undefined;
  const hash = source.indexOf("#");
  const tokens = splitPointer(source.slice(hash + 1));
  const file = source.slice(0, hash).split("/").pop() ?? "";
  return tokens.at(-1) ?? file.replace(/\.(json|ya?ml)$/i, "");
}
