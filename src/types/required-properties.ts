import { isPlainObject } from "../json-pointer.js";
import { childSchemas } from "../spec/schema-keywords.js";

/**
 * openapi-typescript types only the properties a schema lists: a name in `required` that
 * `properties` leaves out is not in the type, which then takes objects without it that the schema
 * refuses (and refuses the spec's own examples that have it). Each such name is listed here, in
 * the flow's document as openapi-typescript reads it (the OpenAPI document keeps the schema as
 * written), as a property of any value: `{}`, typed `unknown`. A schema without `properties` is
 * left alone: listing one would close a type that takes any object.
 *
 * @example
 * listRequiredProperties(document); // { required: ["id"], properties: { name: … } } gains properties.id: {}
 */
export function listRequiredProperties(document: unknown): void {
  const components = isPlainObject(document) ? document.components : undefined;
  const schemas = isPlainObject(components) ? components.schemas : undefined;
  if (!isPlainObject(schemas)) return;
  const stack: unknown[] = Object.values(schemas);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isPlainObject(node)) continue;
    const { required, properties } = node;
    if (Array.isArray(required) && isPlainObject(properties))
      for (const name of required)
        if (typeof name === "string" && !Object.hasOwn(properties, name))
          Object.defineProperty(properties, name, {
            value: {},
            enumerable: true,
            writable: true,
            configurable: true,
          });
    stack.push(...childSchemas(node));
  }
}
