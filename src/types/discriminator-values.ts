import { isPlainObject } from "../json-pointer.js";
import { setOwn } from "../spec/schema-keywords.js";

const COMPONENT = "#/components/schemas/";

/**
 * A `discriminator` whose `mapping` leaves out a branch of its `oneOf` (or `anyOf`): openapi-
 * typescript then types the branch's property as the branch's component name, OpenAPI's implicit
 * value, and flowgen makes component names up (`acme.pets.Input.Cat`), so no value the schema
 * takes fits the type. Where the branch says its value itself (`properties.<name>.const`, or an
 * `enum` of one string), that value is mapped to the branch here, in the flow's document as
 * openapi-typescript reads it (the OpenAPI document keeps the schema as written). `schemas` are
 * the document's components, where the branches' `$ref`s lead.
 *
 * @example
 * mapDiscriminatorValues(schema, schemas); // discriminator { propertyName: "kind" } gains mapping { cat: "#/components/schemas/…Cat" }
 */
export function mapDiscriminatorValues(
  schema: Record<string, unknown>,
  schemas: Record<string, unknown>,
): void {
  if (isPlainObject(schema.discriminator)) mapBranches(schema, schema.discriminator, schemas);
}

/**
 * A base schema with a `discriminator` that other components extend (`allOf: [{ $ref: base }, …]`):
 * openapi-typescript gives each of them the discriminator's property typed as the mapping's value
 * for it, else as its component name. A component that states its value (as `ownValue` reads it)
 * is mapped to it in the base's discriminator. `schemas`: the document's components.
 *
 * @example
 * mapExtendingValues(schemas); // Pet's discriminator gains mapping { cat: "#/components/schemas/…Cat" }
 */
export function mapExtendingValues(schemas: Record<string, unknown>): void {
  const mappings = new Map<Record<string, unknown>, Mapping>();
  for (const [name, schema] of Object.entries(schemas)) {
    const parts = isPlainObject(schema) && Array.isArray(schema.allOf) ? schema.allOf : [];
    for (const part of parts as unknown[]) {
      const base = isPlainObject(part) ? componentOf(part.$ref, schemas) : undefined;
      const discriminator = isPlainObject(base) ? base.discriminator : undefined;
      if (!isPlainObject(discriminator)) continue;
      const mapping = mappings.get(discriminator) ?? mappingOf(discriminator);
      mappings.set(discriminator, mapping);
      mapValue(mapping, `${COMPONENT}${name}`, schema, schemas);
    }
  }
}

function mapBranches(
  schema: Record<string, unknown>,
  discriminator: Record<string, unknown>,
  schemas: Record<string, unknown>,
): void {
  const branches = [schema.oneOf, schema.anyOf].flatMap((list): unknown[] =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  const mapping = mappingOf(discriminator);
  for (const branch of branches) {
    const ref = isPlainObject(branch) ? branch.$ref : undefined;
    if (typeof ref === "string" && ref.startsWith(COMPONENT))
      mapValue(mapping, ref, branch, schemas);
  }
}

/** A discriminator's mapping, which the values found are added to, and the refs it maps. */
interface Mapping {
  readonly propertyName: string | undefined;
  readonly entries: Record<string, unknown>;
  readonly refs: Set<unknown>;
}

/** The discriminator's mapping as `mapValue` adds to it: its own object (made when it has none). */
function mappingOf(discriminator: Record<string, unknown>): Mapping {
  const { propertyName } = discriminator;
  const entries = isPlainObject(discriminator.mapping) ? discriminator.mapping : {};
  discriminator.mapping = entries;
  return {
    propertyName: typeof propertyName === "string" ? propertyName : undefined,
    entries,
    refs: new Set(Object.values(entries)),
  };
}

/** Maps the value `schema` states to `ref`, unless the mapping has the value or the ref already. */
function mapValue(
  mapping: Mapping,
  ref: string,
  schema: unknown,
  schemas: Record<string, unknown>,
): void {
  if (mapping.propertyName === undefined || mapping.refs.has(ref)) return;
  const value = ownValue(schema, mapping.propertyName, schemas, new Set());
  if (value === undefined || Object.hasOwn(mapping.entries, value)) return;
  setOwn(mapping.entries, value, ref);
  mapping.refs.add(ref);
}

/** The component a `$ref` leads to, when it is one of `schemas`. */
function componentOf(ref: unknown, schemas: Record<string, unknown>): unknown {
  if (typeof ref !== "string" || !ref.startsWith(COMPONENT)) return undefined;
  const name = ref.slice(COMPONENT.length);
  return Object.hasOwn(schemas, name) ? schemas[name] : undefined;
}

/**
 * The one string a branch's property takes, when the branch says it: a `const`, or an `enum` of
 * one, on its own property or on one of the schemas it is made of (its `$ref` into the components,
 * its `allOf`), as a branch that extends a base schema says it. Undefined when none says, or two
 * say different values. `seen`: the components on the way, so a cycle ends.
 */
function ownValue(
  schema: unknown,
  propertyName: string,
  schemas: Record<string, unknown>,
  seen: Set<string>,
): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const values = new Set<string>();
  const own = propertyValue(schema.properties, propertyName);
  if (own !== undefined) values.add(own);
  for (const part of partsOf(schema, schemas, seen)) {
    const value = ownValue(part, propertyName, schemas, seen);
    if (value !== undefined) values.add(value);
  }
  return values.size === 1 ? [...values][0] : undefined;
}

/** The schemas a schema is made of: the component its `$ref` leads to, and its `allOf` entries. */
function partsOf(
  schema: Record<string, unknown>,
  schemas: Record<string, unknown>,
  seen: Set<string>,
): unknown[] {
  const parts = Array.isArray(schema.allOf) ? [...(schema.allOf as unknown[])] : [];
  const { $ref: ref } = schema;
  if (typeof ref !== "string" || !ref.startsWith(COMPONENT)) return parts;
  const name = ref.slice(COMPONENT.length);
  if (seen.has(name) || !Object.hasOwn(schemas, name)) return parts;
  seen.add(name);
  return [schemas[name], ...parts];
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
