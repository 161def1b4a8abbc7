import type * as TS from "typescript";
import { openapiTypescript, ts } from "./openapi-typescript-entry.js";

/**
 * openapi-typescript writes an object with both properties and additional (or pattern) properties
 * as `{ label: string } & { [key: string]: number }`. TypeScript holds every property of such an
 * object to the index signature too, so no value fits that type when a property's type is not
 * the index signature's: the spec's own examples would not compile. The index signature here takes
 * each property's type as well (and `undefined` for an optional one), which is what TypeScript can
 * say of such an object: `{ label: string } & { [key: string]: number | string }`. An index
 * signature of `unknown` already fits every property and is left as it is.
 *
 * Given to openapi-typescript as its `postTransform`, so it sees each schema's type once, its
 * properties' types already made.
 *
 * @example
 * const ctx = { ...options, postTransform: fitIndexSignatures };
 */
export function fitIndexSignatures(type: TS.TypeNode): TS.TypeNode | undefined {
  const fitted = fitType(type);
  return fitted === type ? undefined : fitted;
}

/** `type` with the intersections at its top (inside unions and parentheses too) fitted. */
function fitType(type: TS.TypeNode): TS.TypeNode {
  if (ts.isParenthesizedTypeNode(type)) {
    const inner = fitType(type.type);
    return inner === type.type ? type : ts.factory.updateParenthesizedType(type, inner);
  }
  if (ts.isUnionTypeNode(type)) {
    const members = type.types.map(fitType);
    return members.every((member, i) => member === type.types[i])
      ? type
      : ts.factory.updateUnionTypeNode(type, ts.factory.createNodeArray(members));
  }
  if (!ts.isIntersectionTypeNode(type)) return type;
  const members = type.types.map(fitType);
  const properties = members.flatMap((member) =>
    ts.isTypeLiteralNode(member) ? member.members.filter(ts.isPropertySignature) : [],
  );
  const fitted = members.map((member) => fitIndexLiteral(member, properties));
  return fitted.every((member, i) => member === type.types[i])
    ? type
    : ts.factory.updateIntersectionTypeNode(type, ts.factory.createNodeArray(fitted));
}

/** A type literal that is one string index signature, widened to the types of `properties`. */
function fitIndexLiteral(
  member: TS.TypeNode,
  properties: readonly TS.PropertySignature[],
): TS.TypeNode {
  if (!ts.isTypeLiteralNode(member) || member.members.length !== 1) return member;
  const [signature] = member.members;
  if (signature === undefined || !ts.isIndexSignatureDeclaration(signature)) return member;
  if (properties.length === 0 || signature.type.kind === ts.SyntaxKind.UnknownKeyword)
    return member;
  const optional = properties.some((property) => property.questionToken !== undefined);
  const unknown = properties.some(
    (property) => property.type?.kind === ts.SyntaxKind.UnknownKeyword,
  );
  const widened = unknown
    ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword)
    : openapiTypescript.tsUnion([
        signature.type,
        ...properties.map(
          (property) =>
            property.type ?? ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
        ),
        ...(optional ? [ts.factory.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword)] : []),
      ]);
  return ts.factory.updateTypeLiteralNode(
    member,
    ts.factory.createNodeArray([
      ts.factory.updateIndexSignature(
        signature,
        signature.modifiers,
        signature.parameters,
        widened,
      ),
    ]),
  );
}
