import { isPlainObject } from "../json-pointer.js";

/**
 * openapi-typescript types only the properties a schema lists: a name in `required` that
 * `properties` leaves out is not in the type, which then takes objects without it that the schema
 * refuses (and refuses the spec's own examples that have it). Each such name is listed here, in
 * the flow's document as openapi-typescript reads it (the OpenAPI document keeps the schema as
 * written), with the schema its value meets there: the `patternProperties` entry its name matches,
 * else `additionalProperties` when that is a schema, else `{}`, typed `unknown`. A name that
 * matches several patterns, or one that cannot be read, is left out; so is every name of a schema
 * without `properties`.
 *
 * @example
 * listRequiredProperties(schema); // { required: ["id"], properties: { name: … } } gains properties.id: {}
 */
export function listRequiredProperties(schema: Record<string, unknown>): void {
  const { required, properties } = schema;
  if (!Array.isArray(required) || !isPlainObject(properties)) return;
  for (const name of required) {
    if (typeof name !== "string" || Object.hasOwn(properties, name)) continue;
    const value = valueSchema(schema, name);
    if (value !== undefined)
      Object.defineProperty(properties, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
}

/** The schema a property `name` the schema does not list meets; undefined when unsure. */
function valueSchema(schema: Record<string, unknown>, name: string): unknown {
  const { patternProperties, additionalProperties } = schema;
  const matched: unknown[] = [];
  if (isPlainObject(patternProperties)) {
    for (const [source, value] of Object.entries(patternProperties)) {
      const matches = testPattern(source, name);
      if (matches === undefined) return undefined;
      if (matches) matched.push(value);
    }
  }
  if (matched.length > 1) return undefined;
  if (matched.length === 1) return matched[0];
  return isPlainObject(additionalProperties) ? additionalProperties : {};
}

/** Whether `name` matches the pattern, read with the `u` flag where it takes it; undefined when it reads neither way. */
function testPattern(source: string, name: string): boolean | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(source, flags).test(name);
    } catch {
      // Not a pattern with this flag: the next one.
    }
  }
  return undefined;
}
