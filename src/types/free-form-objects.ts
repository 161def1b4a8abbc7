/** Keywords that give an object's type a shape of its own: with one, the schema is left alone. */
const SHAPING = ["additionalProperties", "allOf", "anyOf", "oneOf", "$ref"] as const;

/**
 * A free-form object, `{ "type": "object" }` with nothing that shapes it, takes any object;
 * openapi-typescript types it `Record<string, never>`, which refuses every object with a property.
 * It is said to take any properties here (`additionalProperties: true`), in the flow's document as
 * openapi-typescript reads it, so the type is `{ [key: string]: unknown }`. An object closed with
 * `additionalProperties: false` keeps `Record<string, never>`: that one takes only `{}`.
 *
 * @example
 * openFreeFormObject(schema); // { type: "object" } gains additionalProperties: true
 */
export function openFreeFormObject(schema: Record<string, unknown>): void {
  const { type } = schema;
  const object = type === "object" || (Array.isArray(type) && type.includes("object"));
  if (!object || SHAPING.some((keyword) => schema[keyword] !== undefined)) return;
  if (holdsAny(schema.properties) || holdsAny(schema.patternProperties)) return;
  schema.additionalProperties = true;
}

function holdsAny(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}
