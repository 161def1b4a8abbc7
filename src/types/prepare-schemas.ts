import { isPlainObject } from "../json-pointer.js";
import { childSchemas } from "../spec/schema-keywords.js";
import { openFreeFormObject } from "./free-form-objects.js";
import { separateRefSiblings } from "./ref-siblings.js";
import { listRequiredProperties } from "./required-properties.js";

/**
 * Prepares a flow's document, as openapi-typescript will read it, where the types it would make
 * refuse what the schemas take, or take what they refuse: keywords beside a `$ref`
 * (`separateRefSiblings`), free-form objects (`openFreeFormObject`) and required names the
 * properties leave out (`listRequiredProperties`). One walk of the components' schemas; the
 * document is changed in place (it is the types stage's own parse).
 *
 * @example
 * prepareSchemas(document);
 */
export function prepareSchemas(document: unknown): void {
  const components = isPlainObject(document) ? document.components : undefined;
  const schemas = isPlainObject(components) ? components.schemas : undefined;
  if (!isPlainObject(schemas)) return;
  const stack: unknown[] = Object.values(schemas);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isPlainObject(node)) continue;
    // First, so that the keywords it moves into an `allOf` entry are walked and fixed there.
    separateRefSiblings(node);
    // Its subschemas: what the fixes below add holds nothing to fix (`{}`, a `$ref`), and none of
    // them reads what another changes, so the order of the walk does not matter.
    stack.push(...childSchemas(node));
    openFreeFormObject(node);
    listRequiredProperties(node);
  }
}
