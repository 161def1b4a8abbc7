/**
 * `{ "const": null }` takes null alone (JSON Schema 2020-12 §6.1.3), but openapi-typescript reads a
 * null `const` as no `const` at all and types the schema `unknown`, which takes every value. An
 * `enum` of null means the same and is typed `null`, so the `const` becomes one here, in the flow's
 * document as openapi-typescript reads it. An `enum` beside it keeps only null, which both take.
 *
 * @example
 * enumerateNullConst(schema); // { const: null } becomes { enum: [null] }
 */
export function enumerateNullConst(schema: Record<string, unknown>): void {
  if (!Object.hasOwn(schema, "const") || schema.const !== null) return;
  const { enum: values } = schema;
  delete schema.const;
  schema.enum = Array.isArray(values) && !values.includes(null) ? [] : [null];
}
