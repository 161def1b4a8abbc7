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

function mapBranches(
  schema: Record<string, unknown>,
  discriminator: Record<string, unknown>,
  schemas: Record<string, unknown>,
): void {
  const { propertyName } = discriminator;
  if (typeof propertyName !== "string") return;
  const branches = [schema.oneOf, schema.anyOf].flatMap((list): unknown[] =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  const mapping = isPlainObject(discriminator.mapping) ? { ...discriminator.mapping } : {};
  const mapped = new Set(Object.values(mapping));
  for (const branch of branches) {
    const ref = isPlainObject(branch) ? branch.$ref : undefined;
    if (typeof ref !== "string" || !ref.startsWith(COMPONENT) || mapped.has(ref)) continue;
    const name = ref.slice(COMPONENT.length);
    const value = Object.hasOwn(schemas, name) ? ownValue(schemas[name], propertyName) : undefined;
    if (value === undefined || Object.hasOwn(mapping, value)) continue;
    setOwn(mapping, value, ref);
    mapped.add(ref);
  }
  discriminator.mapping = mapping;
}

/** The one string a branch's property takes, when the branch says it: a `const`, or an `enum` of one. */
function ownValue(branch: unknown, propertyName: string): string | undefined {
  const properties = isPlainObject(branch) ? branch.properties : undefined;
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
