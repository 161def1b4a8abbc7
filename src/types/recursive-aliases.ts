import type * as TS from "typescript";
import { ts } from "./openapi-typescript-entry.js";
import { compareText } from "../issues.js";

/**
 * openapi-typescript writes every component as a member of `interface components` and every
 * reference as `components["schemas"]["X"]`. TypeScript resolves such an indexed access eagerly,
 * so a cycle of components whose references do not sit inside an object type (`A = B | string`,
 * `B = A[]`, as two shared files that refer to each other can give) is an error (TS2502); inside
 * an object type they are resolved lazily and cause no trouble. Type aliases may recurse through
 * arrays and unions (TS 3.7), so each component on such a cycle becomes an exported alias, its
 * references to the others point at their aliases, and the interface member refers to its alias.
 * Every other component is left as openapi-typescript wrote it.
 *
 * @example
 * const nodes = liftRecursiveComponents(transformSchema(document, ctx));
 */
export function liftRecursiveComponents(nodes: readonly TS.Node[]): TS.Node[] {
  const schemaTypes = new Map<string, TS.TypeNode>();
  for (const member of schemaMembers(nodes)) {
    const name = propertyName(member);
    if (name !== undefined && member.type !== undefined) schemaTypes.set(name, member.type);
  }
  const cyclic = componentsOnCycles(
    new Map(
      [...schemaTypes].map(([name, type]) => [
        name,
        eagerReferences(type).filter((target) => schemaTypes.has(target)),
      ]),
    ),
  );
  if (cyclic.length === 0) return [...nodes];
  const aliasOf = aliasNames(cyclic);
  const toAliases = (node: TS.Node): TS.Node => {
    const visit = (child: TS.Node): TS.Node => {
      const target = referencedComponent(child);
      if (target !== undefined && aliasOf.has(target))
        return ts.factory.createTypeReferenceNode(aliasOf.get(target) ?? "");
      return ts.visitEachChild(child, visit, undefined);
    };
    return visit(node);
  };
  const aliases: TS.TypeAliasDeclaration[] = [];
  const lifted = nodes.map((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== "components") return node;
    const members = node.members.map((member) => {
      if (
        !ts.isPropertySignature(member) ||
        propertyName(member) !== "schemas" ||
        member.type === undefined ||
        !ts.isTypeLiteralNode(member.type)
      )
        return member;
      const schemaMembers = member.type.members.map((schema) => {
        const name = ts.isPropertySignature(schema) ? propertyName(schema) : undefined;
        const alias = name === undefined ? undefined : aliasOf.get(name);
        if (alias === undefined || !ts.isPropertySignature(schema) || schema.type === undefined)
          return schema;
        const exported = [ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)];
        aliases.push(
          ts.factory.createTypeAliasDeclaration(
            exported,
            alias,
            undefined,
            toAliases(schema.type) as TS.TypeNode,
          ),
        );
        return ts.factory.updatePropertySignature(
          schema,
          schema.modifiers,
          schema.name,
          schema.questionToken,
          ts.factory.createTypeReferenceNode(alias),
        );
      });
      return ts.factory.updatePropertySignature(
        member,
        member.modifiers,
        member.name,
        member.questionToken,
        ts.factory.updateTypeLiteralNode(member.type, ts.factory.createNodeArray(schemaMembers)),
      );
    });
    return ts.factory.updateInterfaceDeclaration(
      node,
      node.modifiers,
      node.name,
      node.typeParameters,
      node.heritageClauses,
      members,
    );
  });
  return [...lifted, ...aliases.sort((a, b) => compareText(a.name.text, b.name.text))];
}

function schemaMembers(nodes: readonly TS.Node[]): TS.PropertySignature[] {
  const components = nodes.find(
    (node): node is TS.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(node) && node.name.text === "components",
  );
  const schemas = components?.members.find(
    (member): member is TS.PropertySignature =>
      ts.isPropertySignature(member) && propertyName(member) === "schemas",
  );
  if (schemas?.type === undefined || !ts.isTypeLiteralNode(schemas.type)) return [];
  return schemas.type.members.filter((member): member is TS.PropertySignature =>
    ts.isPropertySignature(member),
  );
}

/** Components a type refers to outside any object type: those TypeScript resolves at once. */
function eagerReferences(type: TS.Node): string[] {
  const found: string[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node)) return;
    const target = referencedComponent(node);
    if (target !== undefined) found.push(target);
    else ts.forEachChild(node, visit);
  };
  visit(type);
  return found;
}

/** Nodes of `edges` that can reach themselves (Tarjan's strongly connected components), sorted. */
export function componentsOnCycles(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result: string[] = [];
  let counter = 0;
  const connect = (name: string): void => {
    indexOf.set(name, counter);
    low.set(name, counter++);
    stack.push(name);
    onStack.add(name);
    for (const next of edges.get(name) ?? []) {
      if (!indexOf.has(next)) {
        connect(next);
        low.set(name, Math.min(low.get(name) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next))
        low.set(name, Math.min(low.get(name) ?? 0, indexOf.get(next) ?? 0));
    }
    if (low.get(name) !== indexOf.get(name)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === name) break;
    }
    if (component.length > 1 || (edges.get(name) ?? []).includes(name)) result.push(...component);
  };
  for (const name of edges.keys()) if (!indexOf.has(name)) connect(name);
  return result.sort(compareText);
}

/** `_shared.a-b` → `Recursive_shared_a_b`; names that meet get `_2`, `_3`, … */
function aliasNames(components: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  return new Map(
    components.map((name) => {
      const base = `Recursive_${name.replace(/^_+/, "").replace(/[^A-Za-z0-9_]/g, "_")}`;
      let alias = base;
      for (let n = 2; taken.has(alias); n++) alias = `${base}_${n}`;
      taken.add(alias);
      return [name, alias];
    }),
  );
}

/** "X" for the type `components["schemas"]["X"]`. */
function referencedComponent(node: TS.Node): string | undefined {
  if (
    !ts.isIndexedAccessTypeNode(node) ||
    !ts.isLiteralTypeNode(node.indexType) ||
    !ts.isStringLiteral(node.indexType.literal)
  )
    return undefined;
  const inner = node.objectType;
  if (
    !ts.isIndexedAccessTypeNode(inner) ||
    !ts.isTypeReferenceNode(inner.objectType) ||
    !ts.isIdentifier(inner.objectType.typeName)
  )
    return undefined;
  if (
    inner.objectType.typeName.text !== "components" ||
    !ts.isLiteralTypeNode(inner.indexType) ||
    !ts.isStringLiteral(inner.indexType.literal)
  )
    return undefined;
  return inner.indexType.literal.text === "schemas" ? node.indexType.literal.text : undefined;
}

function propertyName(member: TS.PropertySignature): string | undefined {
  return ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)
    ? member.name.text
    : undefined;
}
