import { setOwn } from "../spec/schema-keywords.js";

/**
 * Keywords that describe a schema without constraining its values: they stay beside a `$ref`,
 * where openapi-typescript reads them for the doc comment and a property's optionality (`default`).
 */
const ANNOTATIONS = new Set([
  "$comment",
  "default",
  "deprecated",
  "description",
  "example",
  "examples",
  "externalDocs",
  "readOnly",
  "title",
  "writeOnly",
  "xml",
]);

/**
 * A `$ref` beside keywords that constrain values (`{ "$ref": "#/$defs/Pet", "properties": … }`):
 * in JSON Schema 2020-12 a value must meet both, but openapi-typescript types the schema as the
 * `$ref`'s target alone, so the type takes what the other keywords refuse (and a discriminator
 * branch written so types its base). The keywords are moved into an `allOf` beside the `$ref`
 * here, which means the same, in the flow's document as openapi-typescript reads it; annotations
 * stay where they are, and so does a `type` with nothing else beside it.
 *
 * @example
 * separateRefSiblings(schema); // { $ref, properties } becomes { allOf: [{ $ref }, { properties }] }
 */
export function separateRefSiblings(schema: Record<string, unknown>): void {
  const { $ref: ref } = schema;
  if (typeof ref !== "string") return;
  const moved = Object.keys(schema).filter(
    (keyword) => keyword !== "$ref" && !isAnnotation(keyword),
  );
  // A `type` alone says little the target does not (flowgen gives an input or output root
  // `type: "object"`), and would make an object type, open to any property, beside the target's.
  if (moved.every((keyword) => keyword === "type")) return;
  const rest: Record<string, unknown> = {};
  for (const keyword of moved) {
    setOwn(rest, keyword, schema[keyword]);
    delete schema[keyword];
  }
  delete schema.$ref;
  schema.allOf = [{ $ref: ref }, rest];
}

/** Whether a keyword only describes a schema: an annotation, or an `x-` extension. */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith("x-");
}
