import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type * as TS from "typescript";
import { openapiTypescript, ts } from "./openapi-typescript-entry.js";
import { fitIndexSignatures } from "./index-signatures.js";
import { prepareSchemas } from "./prepare-schemas.js";
import { liftRecursiveComponents } from "./recursive-aliases.js";

/**
 * TypeScript declarations (`paths`, `components`, `operations`) for an OpenAPI document given as
 * JSON text, by openapi-typescript's transform, as its TypeScript nodes (`astToString` prints them).
 * The document is already bundled (every `$ref` internal), so the Redocly resolve-and-lint pass
 * that `openapiTS()` runs first is skipped: it costs more than the transform itself and would run
 * once per flow. The scan for discriminators walks the whole document, so it runs only when the
 * text holds the key at all.
 *
 * Options differ from openapi-typescript's defaults in two places: `defaultNonNullable` is off, so a
 * request property with a `default` stays optional, as the platform fills it in; and each schema's
 * type goes through `fitIndexSignatures`, so an object with properties and additional properties
 * of another type gets a type its values fit. The document openapi-typescript reads is prepared
 * first (`prepareSchemas`) where its types would refuse what the schemas take.
 *
 * @example
 * const text = openapiTypescript.astToString(flowTypeNodes(JSON.stringify(compileOpenApi(model, [flow], options))));
 */
export function flowTypeNodes(documentText: string): TS.Node[] {
  const schema = JSON.parse(documentText) as OpenAPI3;
  const discriminated = documentText.includes('"discriminator"');
  prepareSchemas(schema);
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: false,
    discriminators: discriminated
      ? openapiTypescript.scanDiscriminators(schema, {})
      : { objects: {}, refsHandled: [] },
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: fitIndexSignatures,
    propertiesRequiredByDefault: false,
    // Only openapiTS() reads the Redocly config; the transforms do not.
    redoc: undefined as unknown as GlobalContext["redoc"],
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    silent: true,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve<T>($ref: string) {
      return openapiTypescript.resolveRef<T>(schema, $ref, { silent: true });
    },
  };
  // `webhooks` and `$defs` are always empty here; leaving them out keeps each module to what it uses.
  return liftRecursiveComponents(openapiTypescript.transformSchema(schema, ctx)).filter(
    (node) =>
      !(
        ts.isTypeAliasDeclaration(node) &&
        (node.name.text === "webhooks" || node.name.text === "$defs")
      ),
  );
}
