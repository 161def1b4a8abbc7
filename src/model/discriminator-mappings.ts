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
 * components are copies; the rest are the bundle's own. `sources`: component name → `file#pointer`.
 *
 * @example
 * const components = mapDiscriminators(bundle.components, bundle.sources);
 */
export function mapDiscriminators(
  components: ReadonlyMap<string, ComponentSchema>,
  sources: ReadonlyMap<string, string>,
): Map<string, ComponentSchema> {
  const scope: MappingScope = { components, sources };
  const mapped = new Map(
    [...components].map(([name, schema]) => [name, mapBranches(scope, schema)] as const),
  );
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
      if (base !== undefined) extending.set(base, [...(extending.get(base) ?? []), name]);
    }
  }
  for (const [base, names] of extending) {
    const schema = mapped.get(base);
    const discriminator = isPlainObject(schema) ? schema.discriminator : undefined;
    if (!isPlainObject(schema) || !isPlainObject(discriminator)) continue;
    const refs = names.map((name) => `${COMPONENT}${name}`);
    const mapping = completeMapping(scope, discriminator, refs);
    if (mapping !== undefined)
      mapped.set(base, { ...schema, discriminator: { ...discriminator, mapping } });
  }
}

/**
 * The discriminator's mapping with an entry for each of `refs` it leaves out (and whose value no
 * entry has yet); undefined when there is none to add.
 */
function completeMapping(
  scope: MappingScope,
  discriminator: Record<string, unknown>,
  refs: readonly string[],
): Record<string, unknown> | undefined {
  const { propertyName } = discriminator;
  if (typeof propertyName !== "string") return undefined;
  const mapping = isPlainObject(discriminator.mapping) ? { ...discriminator.mapping } : {};
  const mapped = new Set(Object.values(mapping));
  let added = false;
  for (const ref of refs) {
    const name = componentName(ref);
    if (name === undefined || mapped.has(ref)) continue;
    const stated = statedValue(scope, scope.components.get(name), propertyName, new Set());
    const value = stated ?? specName(scope, name);
    if (value === undefined || Object.hasOwn(mapping, value)) continue;
    setOwn(mapping, value, ref);
    mapped.add(ref);
    added = true;
  }
  return added ? mapping : undefined;
}

/**
 * The one string a schema's property takes, when the schema says it: a `const`, or an `enum` of
 * one, on its own property or on a schema it is made of (its `$ref`, its `allOf`). Undefined when
 * none says, or two say different values. `seen`: the components on the way, so a cycle ends.
 */
function statedValue(
  scope: MappingScope,
  schema: unknown,
  propertyName: string,
  seen: Set<string>,
): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const values = new Set<string>();
  const own = propertyValue(schema.properties, propertyName);
  if (own !== undefined) values.add(own);
  const parts = Array.isArray(schema.allOf) ? [...(schema.allOf as unknown[])] : [];
  const target = componentName(schema.$ref);
  if (target !== undefined && !seen.has(target)) {
    seen.add(target);
    parts.push(scope.components.get(target));
  }
  for (const part of parts) {
    const value = statedValue(scope, part, propertyName, seen);
    if (value !== undefined) values.add(value);
  }
  return values.size === 1 ? [...values][0] : undefined;
}

/** The one string a property takes, when its schema says it: a `const`, or an `enum` of one. */
function propertyValue(properties: unknown, propertyName: string): string | undefined {
  const property =
    isPlainObject(properties) && Object.hasOwn(properties, propertyName)
      ? properties[propertyName]
      : undefined;
  if (!isPlainObject(property)) return undefined;
  if (typeof property.const === "string") return property.const;
  const { enum: values } = property;
  return Array.isArray(values) && values.length === 1 && typeof values[0] === "string"
    ? values[0]
    : undefined;
}

/** The name a component's schema has in its spec: its key in `$defs`, or its file's name. */
function specName(scope: MappingScope, name: string): string | undefined {
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
