import { isPlainObject } from "../json-pointer.js";
import { childSchemas } from "../spec/schema-keywords.js";
import { mapDiscriminatorValues } from "./discriminator-values.js";
import { openFreeFormObject } from "./free-form-objects.js";
import { listRequiredProperties } from "./required-properties.js";

/**
 * Prepares a flow's document, as openapi-typescript will read it, where the types it would make
 * refuse what the schemas take: free-form objects (`openFreeFormObject`), required names the
 * properties leave out (`listRequiredProperties`) and, when `discriminated`, discriminators whose
 * mapping leaves out a branch that states its value (`mapDiscriminatorValues`). One walk of the
 * components' schemas; the document is changed in place (it is the types stage's own parse).
 *
 * @example
 * prepareSchemas(document, text.includes('"discriminator"'));
 */
export function prepareSchemas(document: unknown, discriminated: boolean): void {
  const components = isPlainObject(document) ? document.components : undefined;
  const schemas = isPlainObject(components) ? components.schemas : undefined;
  if (!isPlainObject(schemas)) return;
  const stack: unknown[] = Object.values(schemas);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isPlainObject(node)) continue;
    // Its subschemas as written: what the fixes below add holds nothing to fix (`{}`, a `$ref`),
    // and no fix reads what another changes, so the order of the walk does not matter.
    stack.push(...childSchemas(node));
    openFreeFormObject(node);
    listRequiredProperties(node);
    if (discriminated) mapDiscriminatorValues(node, schemas);
  }
}
