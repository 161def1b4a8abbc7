import { isPlainObject } from "../json-pointer.js";
import { componentName } from "../model/component-ref.js";
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
 * `$ref`'s target alone, so the type takes what the other keywords refuse. The keywords are moved
 * into an `allOf` beside the `$ref` here, which means the same, in the flow's document as
 * openapi-typescript reads it. Annotations stay where they are, and so does `type` (beside an
 * `allOf` it shapes nothing; inside an entry it would make an object type open to any property).
 * Left as it is where a discriminator is involved, whose `allOf` openapi-typescript reads as
 * "extends": the schema has one, or the `$ref` leads to a component that has one. `schemas`: the
 * document's components.
 *
 * @example
 * separateRefSiblings(schema, schemas); // { $ref, properties } becomes { allOf: [{ $ref }, { properties }] }
 */
export function separateRefSiblings(
  schema: Record<string, unknown>,
  schemas: Record<string, unknown>,
): void {
  const { $ref: ref } = schema;
  if (typeof ref !== "string" || schema.discriminator !== undefined) return;
  if (leadsToDiscriminator(ref, schemas)) return;
  const moved = Object.keys(schema).filter(
    (keyword) => keyword !== "$ref" && keyword !== "type" && !isAnnotation(keyword),
  );
  if (moved.length === 0) return;
  const rest: Record<string, unknown> = {};
  for (const keyword of moved) {
    setOwn(rest, keyword, schema[keyword]);
    delete schema[keyword];
  }
  delete schema.$ref;
  schema.allOf = [{ $ref: ref }, rest];
}

/**
 * Whether the component `ref` leads to has a discriminator, or extends one that has (through its
 * `$ref` or its `allOf`), as openapi-typescript's scan of discriminators reads it.
 */
function leadsToDiscriminator(
  ref: unknown,
  schemas: Record<string, unknown>,
  seen: Set<string> = new Set(),
): boolean {
  const name = componentName(ref);
  if (name === undefined || seen.has(name)) return false;
  seen.add(name);
  const target = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
  if (!isPlainObject(target)) return false;
  if (target.discriminator !== undefined) return true;
  const parts = Array.isArray(target.allOf) ? (target.allOf as unknown[]) : [];
  return [target, ...parts].some(
    (part) => isPlainObject(part) && leadsToDiscriminator(part.$ref, schemas, seen),
  );
}

/** Whether a keyword only describes a schema: an annotation, or an `x-` extension. */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith("x-");
}
