import { isPlainObject } from "../json-pointer.js";
import { childSchemas } from "../spec/schema-keywords.js";
import { dropNullTheEnumRefuses } from "./enum-nulls.js";
import { openFreeFormObject } from "./free-form-objects.js";
import { enumerateNullConst } from "./null-consts.js";
import { openPatternObject } from "./pattern-properties.js";
import { loosenPrefixItems } from "./prefix-items.js";
import { separateRefSiblings } from "./ref-siblings.js";
import { typeRequiredBranches } from "./required-branches.js";
import { listRequiredOfParts, listRequiredProperties } from "./required-properties.js";

/**
 * Prepares a flow's document, as openapi-typescript will read it, where the types it would make
 * refuse what the schemas take, or take what they refuse:
 * - keywords beside a `$ref` (`separateRefSiblings`);
 * - free-form objects (`openFreeFormObject`), and pattern properties on an open object
 *   (`openPatternObject`);
 * - required names the properties leave out (`listRequiredProperties`), or that an `allOf` entry
 *   lists alone (`listRequiredOfParts`), or that each `anyOf` or `oneOf` branch of an object
 *   lists alone (`typeRequiredBranches`);
 * - a `"null"` type beside an enum without null (`dropNullTheEnumRefuses`), and a null `const`
 *   (`enumerateNullConst`);
 * - `prefixItems` typed as a tuple where the array may be shorter or longer (`loosenPrefixItems`).
 *
 * One walk of the components' schemas; the document is changed in place (it is the types stage's
 * own parse).
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
    separateRefSiblings(node, schemas);
    // Its subschemas: what the fixes below add holds nothing to fix (`{}`, a `$ref`, an `anyOf`
    // of subschemas pushed here), and none of them reads what another changes, so the order of
    // the walk does not matter.
    stack.push(...childSchemas(node));
    openFreeFormObject(node);
    openPatternObject(node);
    listRequiredProperties(node);
    listRequiredOfParts(node);
    typeRequiredBranches(node);
    dropNullTheEnumRefuses(node);
    enumerateNullConst(node);
    loosenPrefixItems(node);
  }
}
