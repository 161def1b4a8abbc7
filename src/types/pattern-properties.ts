import { isPlainObject } from "../json-pointer.js";

/**
 * `patternProperties` on an object that is otherwise open (`additionalProperties` absent, `true`
 * or `{}`): a key no pattern matches may hold any value (JSON Schema 2020-12 §10.3.2.2-3), but
 * openapi-typescript makes the patterns' schemas one index signature over every key, so the type
 * refuses `{ "other": "text" }` that the schema takes. TypeScript cannot say which keys a pattern
 * matches, so the index signature takes any value here: the patterns give way to
 * `additionalProperties: true`, in the flow's document as openapi-typescript reads it. A closed
 * object (`additionalProperties` `false` or a schema) keeps its patterns: each key then meets one
 * of them or `additionalProperties`, which the index signature's union says.
 *
 * @example
 * openPatternObject(schema); // { patternProperties: { "^n_": … } } becomes { additionalProperties: true }
 */
export function openPatternObject(schema: Record<string, unknown>): void {
  const { patternProperties, additionalProperties } = schema;
  if (!isPlainObject(patternProperties) || Object.keys(patternProperties).length === 0) return;
  const open =
    additionalProperties === undefined ||
    additionalProperties === true ||
    (isPlainObject(additionalProperties) && Object.keys(additionalProperties).length === 0);
  if (!open) return;
  delete schema.patternProperties;
  schema.additionalProperties = true;
}
