import { isPlainObject } from "../json-pointer.js";
import { setOwn } from "../spec/schema-keywords.js";

/**
 * openapi-typescript types only the properties a schema lists: a name in `required` that
 * `properties` leaves out is not in the type, which then takes objects without it that the schema
 * refuses (and refuses the spec's own examples that have it). Each such name is listed here, in
 * the flow's document as openapi-typescript reads it (the OpenAPI document keeps the schema as
 * written): as a reference to `additionalProperties`' component when that is all it holds, else as
 * `{}`, a value of any type. (Copying a whole schema to each such name would print it again at
 * every place, which nesting multiplies.) A schema without `properties` is left alone.
 *
 * @example
 * listRequiredProperties(schema); // { required: ["id"], properties: { name: … } } gains properties.id: {}
 */
export function listRequiredProperties(schema: Record<string, unknown>): void {
  const { required, properties, additionalProperties } = schema;
  if (!Array.isArray(required) || !isPlainObject(properties)) return;
  const reference =
    isPlainObject(additionalProperties) &&
    typeof additionalProperties.$ref === "string" &&
    Object.keys(additionalProperties).length === 1 &&
    schema.patternProperties === undefined
      ? additionalProperties.$ref
      : undefined;
  for (const name of required)
    if (typeof name === "string" && !Object.hasOwn(properties, name))
      setOwn(properties, name, reference === undefined ? {} : { $ref: reference });
}

/**
 * An `allOf` entry that lists `required` names and describes none (`{ "required": ["a"] }`, as a
 * `$ref` with `required` beside it becomes, `separateRefSiblings`): openapi-typescript types it
 * `unknown`, so each name stays as optional as the other entries say, and the type takes objects
 * without it that the schema refuses. The entry is given the names as properties here (as
 * `listRequiredProperties` gives them), so its type `{ a: unknown }` makes them required in the
 * intersection, of the type the other entries give them. Only inside an `allOf`: on its own such a
 * schema also takes every value that is not an object. An entry with a `type` is left to the fixes
 * of typed objects.
 *
 * @example
 * listRequiredOfParts(schema); // allOf [{ properties: { a } }, { required: ["a"] }]: the second gains properties.a: {}
 */
export function listRequiredOfParts(schema: Record<string, unknown>): void {
  const { allOf } = schema;
  if (!Array.isArray(allOf)) return;
  for (const part of allOf as unknown[]) {
    if (!isPlainObject(part) || !Array.isArray(part.required)) continue;
    if (part.type !== undefined || part.properties !== undefined || part.$ref !== undefined)
      continue;
    part.properties = {};
    listRequiredProperties(part);
  }
}
