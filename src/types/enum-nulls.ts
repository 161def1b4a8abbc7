/**
 * An `enum` beside a `type` that allows null: a value must be in the enum and of the type (JSON
 * Schema 2020-12 §6.1.1-2), but openapi-typescript adds `null` to the enum's values whenever
 * `type` allows it, so `{ "type": ["string", "null"], "enum": ["a", "b"] }` took null, which the
 * enum refuses. Here, in the flow's document as openapi-typescript reads it, `type` loses `"null"`
 * when the enum leaves it out. (An enum value the type refuses is a spec error,
 * `invalid-schema-value`, so the enum is not fitted to the type.)
 *
 * @example
 * dropNullTheEnumRefuses(schema); // { type: ["string", "null"], enum: ["a"] } becomes { type: ["string"], enum: ["a"] }
 */
export function dropNullTheEnumRefuses(schema: Record<string, unknown>): void {
  const { type, enum: values } = schema;
  if (!Array.isArray(type) || !Array.isArray(values)) return;
  if (type.includes("null") && !values.includes(null))
    schema.type = type.filter((name) => name !== "null");
}
