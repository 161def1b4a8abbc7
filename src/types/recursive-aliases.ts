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
  const cyclic = componentsOnCycles(eagerReferenceGraph(schemaMembers(nodes)));
  if (cyclic.length === 0) return [...nodes];
  const lifting: Lifting = { aliasOf: aliasNames(cyclic), aliases: [] };
  const lifted = nodes.map((node) => (isComponents(node) ? liftComponents(node, lifting) : node));
  const aliases = lifting.aliases.sort((a, b) => compareText(a.name.text, b.name.text));
  return [...lifted, ...aliases];
}

/** The components on cycles and their alias names, and the aliases made so far. */
interface Lifting {
  readonly aliasOf: ReadonlyMap<string, string>;
  readonly aliases: TS.TypeAliasDeclaration[];
}

/** `interface components`'s `schemas` member, when it is an object type. */
type SchemasMember = TS.PropertySignature & { readonly type: TS.TypeLiteralNode };

function isComponents(node: TS.Node): node is TS.InterfaceDeclaration {
  return ts.isInterfaceDeclaration(node) && node.name.text === "components";
}

function isSchemas(member: TS.TypeElement): member is SchemasMember {
  return (
    ts.isPropertySignature(member) &&
    propertyName(member) === "schemas" &&
    member.type !== undefined &&
    ts.isTypeLiteralNode(member.type)
  );
}

/** Per schema component, the other components it refers to eagerly. */
function eagerReferenceGraph(members: readonly TS.PropertySignature[]): Map<string, string[]> {
  const schemaTypes = new Map<string, TS.TypeNode>();
  for (const member of members) {
    const name = propertyName(member);
    if (name !== undefined && member.type !== undefined) schemaTypes.set(name, member.type);
  }
  const edges = new Map<string, string[]>();
  for (const [name, type] of schemaTypes)
    edges.set(
      name,
      eagerReferences(type).filter((target) => schemaTypes.has(target)),
    );
  return edges;
}

/** `interface components` with each component on a cycle lifted out of its `schemas`. */
function liftComponents(node: TS.InterfaceDeclaration, lifting: Lifting): TS.InterfaceDeclaration {
  const members = node.members.map((member) =>
    isSchemas(member) ? liftSchemas(member, lifting) : member,
  );
  return ts.factory.updateInterfaceDeclaration(
    node,
    node.modifiers,
    node.name,
    node.typeParameters,
    node.heritageClauses,
    members,
  );
}

function liftSchemas(member: SchemasMember, lifting: Lifting): TS.PropertySignature {
  const schemas = member.type.members.map((schema) => liftSchema(schema, lifting));
  return ts.factory.updatePropertySignature(
    member,
    member.modifiers,
    member.name,
    member.questionToken,
    ts.factory.updateTypeLiteralNode(member.type, ts.factory.createNodeArray(schemas)),
  );
}

/** A component on a cycle becomes an exported alias (added to `lifting`), and its member refers to it. */
function liftSchema(schema: TS.TypeElement, lifting: Lifting): TS.TypeElement {
  if (!ts.isPropertySignature(schema) || schema.type === undefined) return schema;
  const name = propertyName(schema);
  const alias = name === undefined ? undefined : lifting.aliasOf.get(name);
  if (alias === undefined) return schema;
  const exported = [ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)];
  const type = referToAliases(schema.type, lifting.aliasOf);
  lifting.aliases.push(ts.factory.createTypeAliasDeclaration(exported, alias, undefined, type));
  return ts.factory.updatePropertySignature(
    schema,
    schema.modifiers,
    schema.name,
    schema.questionToken,
    ts.factory.createTypeReferenceNode(alias),
  );
}

/** `type` with every reference to a component on a cycle pointing at its alias instead. */
function referToAliases(type: TS.TypeNode, aliasOf: ReadonlyMap<string, string>): TS.TypeNode {
  const visit = (child: TS.Node): TS.Node => {
    const target = referencedComponent(child);
    if (target !== undefined && aliasOf.has(target))
      return ts.factory.createTypeReferenceNode(aliasOf.get(target) ?? "");
    return ts.visitEachChild(child, visit, undefined);
  };
  return visit(type) as TS.TypeNode;
}

function schemaMembers(nodes: readonly TS.Node[]): TS.PropertySignature[] {
  const components = nodes.find(isComponents);
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
