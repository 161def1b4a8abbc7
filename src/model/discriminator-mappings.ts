import { isPlainObject, splitPointer } from "../json-pointer.js";
import { replaceSubschemas, setOwn } from "../spec/schema-keywords.js";
import type { ComponentSchema } from "./bundle-schemas.js";

const COMPONENT = "#/components/schemas/";

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
    const refs = names.map((name) => `${COMPONENT}${name}`);
    const mapping = completeMapping(scope, discriminator, refs);
    if (mapping !== undefined)
      mapped.set(base, { ...schema, discriminator: { ...discriminator, mapping } });
  }
}

/**
 * The discriminator's mapping with an entry for each of `refs` it leaves out: first the values the
 * schemas state, then, for those that state nothing of the property, their names in the spec. A
 * value an entry has already is not taken again; a schema that allows several values is left out
 * (openapi-typescript types a schema by one value). An entry the spec wrote with a bare name (a
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
  refs.forEach((ref, i) => add(ref, stated[i]?.value));
  refs.forEach((ref, i) => {
    if (stated[i] === NOTHING) add(ref, specName(scope, componentName(ref) ?? ""));
  });
  return JSON.stringify(mapping) === JSON.stringify(written) ? undefined : mapping;
}

/** What a schema says of the discriminator's property: one value, none, or several. */
interface Stated {
  readonly value?: string | undefined;
}
const NOTHING: Stated = {};
const SEVERAL: Stated = {};

function componentOf(scope: MappingScope, ref: string): unknown {
  const name = componentName(ref);
  return name === undefined ? undefined : scope.components.get(name);
}

/**
 * What a schema says of `propertyName`'s value: a `const`, or an `enum` (one value, or several),
 * on its own property or on a schema it is made of (its `$ref`, its `allOf`); two parts that say
 * different values say several. `seen`: the components on the way, so a cycle ends.
 */
function statedValue(
  scope: MappingScope,
  schema: unknown,
  propertyName: string,
  seen: Set<string> = new Set(),
): Stated {
  if (!isPlainObject(schema)) return NOTHING;
  const said = [propertyValue(schema.properties, propertyName)];
  const parts = Array.isArray(schema.allOf) ? [...(schema.allOf as unknown[])] : [];
  const target = componentName(schema.$ref);
  if (target !== undefined && !seen.has(target)) {
    seen.add(target);
    parts.push(scope.components.get(target));
  }
  for (const part of parts) said.push(statedValue(scope, part, propertyName, seen));
  const saying = said.filter((each) => each !== NOTHING);
  if (saying.length === 0) return NOTHING;
  const values = new Set(saying.map((each) => each.value));
  return values.size === 1 && !values.has(undefined) ? saying[0]! : SEVERAL;
}

/** What a property's schema says of its value: a `const`, or an `enum` of one value or several. */
function propertyValue(properties: unknown, propertyName: string): Stated {
  const property =
    isPlainObject(properties) && Object.hasOwn(properties, propertyName)
      ? properties[propertyName]
      : undefined;
  if (!isPlainObject(property)) return NOTHING;
  if (Object.hasOwn(property, "const"))
    return typeof property.const === "string" ? { value: property.const } : SEVERAL;
  const { enum: values } = property;
  if (!Array.isArray(values)) return NOTHING;
  return values.length === 1 && typeof values[0] === "string" ? { value: values[0] } : SEVERAL;
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

function componentName(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.startsWith(COMPONENT)
    ? ref.slice(COMPONENT.length)
    : undefined;
}
