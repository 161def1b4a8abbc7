import { builders, printer } from "prettier/doc";
import type * as TS from "typescript";
import { ts } from "../types/openapi-typescript-entry.js";
import {
  alignOf,
  assignment,
  blockComment,
  concat,
  groupOf,
  indentOf,
  printNumber,
  printString,
} from "./prettier-docs.js";
import type { CodeLayout } from "./code-layout.js";

const { group, hardline, ifBreak, indent, join, line, softline } = builders;
type Doc = builders.Doc;

/**
 * Prints openapi-typescript's declarations for one flow exactly as prettier formats the text
 * openapi-typescript's printer gives (`astToString`), without printing that text and parsing it
 * back: the layout comes from the same document prettier's TypeScript printer builds for these
 * nodes, laid out by prettier's own `printDocToString`, so line fitting, indentation and string
 * widths are prettier's. It knows the shapes openapi-typescript writes (interfaces of property and
 * index signatures, unions, intersections, arrays, tuples, literals, references, indexed access,
 * JSDoc comments on members) and the options in `CodeLayout`; for anything else it gives
 * undefined and the caller formats the text with prettier. A test compares both ways over the
 * goldens, a large synthetic project and random schemas.
 *
 * @example
 * const text = printTypes(banner(source), flowTypeNodes(documentText), layout) ?? (await prettier.format(...));
 */
export function printTypes(
  header: string,
  nodes: readonly TS.Node[],
  layout: CodeLayout,
): string | undefined {
  if (/[\r\n\u2028\u2029]/.test(header) || !header.startsWith("//")) return undefined;
  try {
    const statements = nodes.map((node) => printStatement(node, layout));
    const doc: Doc = [header.trimEnd(), hardline, hardline, join(hardline, statements), hardline];
    const { formatted } = printer.printDocToString(doc, {
      printWidth: layout.printWidth,
      tabWidth: layout.tabWidth,
      useTabs: layout.useTabs,
    });
    // No string in the document holds a line break of its own (literals escape them), so every "\n" is a line end.
    return layout.endOfLine === "lf"
      ? formatted
      : formatted.replaceAll("\n", layout.endOfLine === "crlf" ? "\r\n" : "\r");
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** A node or option outside what `printTypes` knows: prettier formats the file instead. */
class Unsupported extends Error {}

/** Where a type sits, as far as prettier's choices of parentheses and indentation depend on it. */
type Place =
  | "annotation"
  | "assigned-union"
  | "union-member"
  | "intersection-member"
  | "array-element"
  | "indexed-object"
  | "index"
  | "type-argument"
  | "tuple-element"
  | "only-tuple-element"
  | "rest";

function printStatement(node: TS.Node, layout: CodeLayout): Doc {
  if (
    !(ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) ||
    hasComments(node) ||
    hasComments(node.name)
  )
    throw new Unsupported();
  if (node.typeParameters !== undefined) throw new Unsupported();
  const modifiers = node.modifiers ?? [];
  if (modifiers.some((modifier) => modifier.kind !== ts.SyntaxKind.ExportKeyword))
    throw new Unsupported();
  const exported = modifiers.length > 0 ? "export " : "";
  if (ts.isTypeAliasDeclaration(node)) return [exported, printTypeAlias(node, layout), ";"];
  if (node.heritageClauses !== undefined) throw new Unsupported();
  const members = node.members.map((member) => printMember(member, layout, ";"));
  return [
    exported,
    "interface ",
    node.name.text,
    " ",
    "{",
    members.length > 0 ? [indent([hardline, join(hardline, members)]), hardline] : "",
    "}",
  ];
}

/**
 * `type X = …` in prettier's assignment layouts: a union that does not hug breaks after `=` and
 * then one member per line; anything else moves to the next line only when its first line does not fit.
 */
function printTypeAlias(node: TS.TypeAliasDeclaration, layout: CodeLayout): Doc {
  const type = unparenthesized(node.type);
  const left = ["type ", node.name.text];
  if (ts.isUnionTypeNode(type) && !shouldHugUnion(type))
    return assignment(
      left,
      " =",
      printType(type, "assigned-union", layout),
      "break-after-operator",
    );
  return assignment(left, " =", printType(type, "annotation", layout), "fluid");
}

/** A member of an interface or type literal, with its separator and its leading JSDoc comments. */
function printMember(member: TS.TypeElement, layout: CodeLayout, separator: Doc): Doc {
  let printed: Doc;
  if (ts.isPropertySignature(member)) {
    if (
      member.type === undefined ||
      (member.modifiers ?? []).some((modifier) => modifier.kind !== ts.SyntaxKind.ReadonlyKeyword)
    )
      throw new Unsupported();
    const readonly = (member.modifiers ?? []).length > 0 ? "readonly " : "";
    printed = concat([
      groupOf([
        readonly,
        printPropertyKey(member.name, layout),
        member.questionToken ? "?" : "",
        ": ",
        printType(member.type, "annotation", layout),
      ]),
      separator,
    ]);
  } else if (ts.isIndexSignatureDeclaration(member)) {
    const [parameter] = member.parameters;
    if (
      member.parameters.length !== 1 ||
      parameter === undefined ||
      (member.modifiers ?? []).length > 0 ||
      parameter.type === undefined
    )
      throw new Unsupported();
    if (
      !ts.isIdentifier(parameter.name) ||
      parameter.questionToken ||
      parameter.dotDotDotToken ||
      parameter.initializer ||
      (parameter.modifiers ?? []).length > 0 ||
      hasComments(parameter)
    )
      throw new Unsupported();
    const printedParameter = [
      parameter.name.text,
      ": ",
      printType(parameter.type, "annotation", layout),
    ];
    printed = concat([
      group([
        "[",
        group([indent([softline, printedParameter]), softline]),
        "]",
        ": ",
        printType(member.type, "annotation", layout),
      ]),
      separator,
    ]);
  } else {
    throw new Unsupported();
  }
  return [...leadingComments(member), printed];
}

function printPropertyKey(name: TS.PropertyName, layout: CodeLayout): Doc {
  if (hasComments(name)) throw new Unsupported();
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isNumericLiteral(name)) return printNumber(name.text);
  if (ts.isStringLiteral(name)) {
    const printed = printString(rawString(name), layout);
    // quoteProps "as-needed": quotes go when the key is an identifier name written without escapes.
    return printed.slice(1, -1) === name.text && /^[$A-Z_a-z][$\w]*$/.test(name.text)
      ? name.text
      : printed;
  }
  throw new Unsupported();
}

function printType(node: TS.TypeNode, place: Place, layout: CodeLayout): Doc {
  const inner = unparenthesized(node);
  if (inner !== node) return printType(inner, place, layout);
  if (hasComments(node)) throw new Unsupported();
  const printed = printTypeItself(node, place, layout);
  return needsParentheses(node, place) ? concat(["(", printed, ")"]) : printed;
}

function printTypeItself(node: TS.TypeNode, place: Place, layout: CodeLayout): Doc {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
    case ts.SyntaxKind.NumberKeyword:
    case ts.SyntaxKind.BooleanKeyword:
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.NeverKeyword:
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UndefinedKeyword:
    case ts.SyntaxKind.ObjectKeyword:
    case ts.SyntaxKind.VoidKeyword:
    case ts.SyntaxKind.BigIntKeyword:
    case ts.SyntaxKind.SymbolKeyword:
      return keywordText(node.kind);
  }
  if (ts.isLiteralTypeNode(node)) return printLiteral(node.literal, layout);
  // openapi-typescript writes a string constant as an identifier holding its JSON text, printed as is.
  if (ts.isIdentifier(node)) return printStringIdentifier(node, layout);
  if (ts.isTypeReferenceNode(node))
    return concat([
      printEntityName(node.typeName),
      node.typeArguments === undefined ? "" : printTypeArguments(node.typeArguments, layout),
    ]);
  if (ts.isIndexedAccessTypeNode(node))
    return concat([
      printType(node.objectType, "indexed-object", layout),
      "[",
      printType(node.indexType, "index", layout),
      "]",
    ]);
  if (ts.isArrayTypeNode(node))
    return concat([printType(node.elementType, "array-element", layout), "[]"]);
  if (ts.isTypeLiteralNode(node)) return printTypeLiteral(node, layout);
  // An empty union or intersection prints as nothing at all.
  if ((ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) && node.types.length === 0)
    throw new Unsupported();
  if (ts.isUnionTypeNode(node)) return printUnion(node, place, layout);
  if (ts.isIntersectionTypeNode(node)) return printIntersection(node, layout);
  if (ts.isTupleTypeNode(node)) return printTuple(node, layout);
  if (ts.isRestTypeNode(node)) return concat(["...", printType(node.type, "rest", layout)]);
  throw new Unsupported();
}

function keywordText(kind: TS.SyntaxKind): string {
  const text = ts.tokenToString(kind);
  if (text === undefined) throw new Unsupported();
  return text;
}

function printEntityName(name: TS.EntityName): Doc {
  if (hasComments(name)) throw new Unsupported();
  return ts.isIdentifier(name)
    ? name.text
    : concat([printEntityName(name.left), ".", name.right.text]);
}

function printLiteral(literal: TS.LiteralTypeNode["literal"], layout: CodeLayout): Doc {
  if (hasComments(literal)) throw new Unsupported();
  switch (literal.kind) {
    case ts.SyntaxKind.NullKeyword:
      return "null";
    case ts.SyntaxKind.TrueKeyword:
      return "true";
    case ts.SyntaxKind.FalseKeyword:
      return "false";
  }
  if (ts.isStringLiteral(literal)) return printString(rawString(literal), layout);
  if (ts.isIdentifier(literal)) return printStringIdentifier(literal, layout);
  if (ts.isNumericLiteral(literal)) return printNumber(literal.text);
  if (
    ts.isPrefixUnaryExpression(literal) &&
    literal.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(literal.operand) &&
    !hasComments(literal.operand)
  )
    return `-${printNumber(literal.operand.text)}`;
  throw new Unsupported();
}

/** Type arguments: on one line when there is one simple argument, else a group that breaks one per line. */
function printTypeArguments(types: readonly TS.TypeNode[], layout: CodeLayout): Doc {
  const printed = types.map((type) => printType(type, "type-argument", layout));
  const [only] = types;
  if (
    types.length === 0 ||
    (types.length === 1 && only !== undefined && huggedTypeArgument(unparenthesized(only)))
  )
    return concat(["<", join(", ", printed), ">"]);
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
}

function huggedTypeArgument(node: TS.TypeNode): boolean {
  return (
    isSimpleType(node) ||
    ts.isTypeLiteralNode(node) ||
    (ts.isUnionTypeNode(node) && shouldHugUnion(node))
  );
}

function isSimpleType(node: TS.TypeNode): boolean {
  if (ts.isLiteralTypeNode(node)) return true;
  if (ts.isTypeReferenceNode(node)) return node.typeArguments === undefined;
  return isKeyword(node);
}

function isKeyword(node: TS.TypeNode): boolean {
  return node.kind >= ts.SyntaxKind.FirstKeyword && node.kind <= ts.SyntaxKind.LastKeyword;
}

function printTypeLiteral(node: TS.TypeLiteralNode, layout: CodeLayout): Doc {
  if (node.members.length === 0) return "{}";
  const last = node.members.length - 1;
  const members = node.members.map((member, index) =>
    printMember(member, layout, index === last ? ifBreak(";") : ";"),
  );
  const spacing = layout.bracketSpacing ? line : softline;
  // TypeScript's printer writes a type literal over several lines (openapi-typescript never asks for
  // one line), and prettier keeps an object type expanded when its first member starts a new line.
  return group(["{", indent([spacing, join(line, members)]), spacing, "}"], { shouldBreak: true });
}

function printUnion(node: TS.UnionTypeNode, place: Place, layout: CodeLayout): Doc {
  if (shouldHugUnion(node))
    return concat(
      join(
        " | ",
        node.types.map((type) => printType(type, "union-member", layout)),
      ),
    );
  const members = group(
    node.types.map((type, index) => [
      index === 0 ? ifBreak("| ") : [line, "| "],
      alignOf(2, printType(type, "union-member", layout)),
    ]),
  );
  if (needsParentheses(node, place)) return group([indent([softline, members]), softline]);
  if (place === "tuple-element")
    return group([indent([ifBreak(["(", softline]), members]), softline, ifBreak(")")]);
  if (place === "type-argument" || place === "only-tuple-element" || place === "assigned-union")
    return members;
  return group(indent([softline, members]));
}

/** `{ … } | null`: one object-like type and only `null` or `void` beside it stays on the object's lines. */
function shouldHugUnion(node: TS.UnionTypeNode): boolean {
  const types = node.types.map(unparenthesized);
  const objectLike = types.find(
    (type) => ts.isTypeLiteralNode(type) || ts.isTypeReferenceNode(type),
  );
  return (
    objectLike !== undefined &&
    types.every(
      (type) =>
        type === objectLike ||
        type.kind === ts.SyntaxKind.VoidKeyword ||
        (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword),
    )
  );
}

function printIntersection(node: TS.IntersectionTypeNode, layout: CodeLayout): Doc {
  let indented = false;
  const types = node.types.map(unparenthesized);
  return groupOf(
    types.map((type, index): Doc => {
      const printed = printType(type, "intersection-member", layout);
      if (index === 0) return printed;
      const isObject = ts.isTypeLiteralNode(type);
      const previousIsObject = ts.isTypeLiteralNode(types[index - 1] as TS.TypeNode);
      if (previousIsObject && isObject)
        return concat([" & ", indented ? indentOf(printed) : printed]);
      if (!previousIsObject && !isObject)
        return layout.operatorAtStart
          ? indent([line, "& ", printed])
          : indent([" &", line, printed]);
      if (index > 1) indented = true;
      return concat([" & ", index > 1 ? indentOf(printed) : printed]);
    }),
  );
}

function printTuple(node: TS.TupleTypeNode, layout: CodeLayout): Doc {
  if (node.elements.length === 0) return "[]";
  const place: Place = node.elements.length > 1 ? "tuple-element" : "only-tuple-element";
  const elements = node.elements.map((element) => {
    if (ts.isNamedTupleMember(element) || ts.isOptionalTypeNode(element)) throw new Unsupported();
    return groupOf(printType(element, place, layout));
  });
  const trailing = layout.trailingComma === "none" ? "" : ifBreak(",");
  return group(["[", indent([softline, join([",", line], elements), trailing]), softline, "]"]);
}

function needsParentheses(node: TS.TypeNode, place: Place): boolean {
  if (!ts.isUnionTypeNode(node) && !ts.isIntersectionTypeNode(node)) return false;
  return (
    place === "union-member" ||
    place === "intersection-member" ||
    place === "array-element" ||
    place === "indexed-object" ||
    place === "rest"
  );
}

/**
 * The type as prettier's parser sees it in the printed text: without parentheses, and a union or
 * intersection of one type (which TypeScript's printer writes as that type) is that type.
 */
function unparenthesized(node: TS.TypeNode): TS.TypeNode {
  if (ts.isParenthesizedTypeNode(node)) return unparenthesized(node.type);
  if ((ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) && node.types.length === 1)
    return unparenthesized(node.types[0] as TS.TypeNode);
  return node;
}

/**
 * JSDoc comments openapi-typescript attaches to a member, as prettier prints them. TypeScript's
 * printer writes each line of a comment trimmed, on a line of its own.
 */
function leadingComments(node: TS.Node): Doc[] {
  const comments = ts.getSyntheticLeadingComments(node) ?? [];
  if ((ts.getSyntheticTrailingComments(node) ?? []).length > 0) throw new Unsupported();
  return comments.map((comment) => {
    if (comment.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !comment.hasTrailingNewLine)
      throw new Unsupported();
    const printed = blockComment(
      `/*${comment.text}*/`
        .split(/\r\n|[\r\n\u2028\u2029]/)
        .map((text) => text.trim())
        .join("\n"),
    );
    if (printed === undefined) throw new Unsupported();
    return [printed, hardline];
  });
}

function hasComments(node: TS.Node): boolean {
  return (
    (ts.getSyntheticLeadingComments(node) ?? []).length > 0 ||
    (ts.getSyntheticTrailingComments(node) ?? []).length > 0
  );
}

function printStringIdentifier(node: TS.Identifier, layout: CodeLayout): string {
  if (!/^"(?:[^"\\\n\r]|\\.)*"$/su.test(node.text)) throw new Unsupported();
  return printString(node.text, layout);
}

let literalPrinter: { printer: TS.Printer; file: TS.SourceFile } | undefined;

/** A string literal as TypeScript's printer writes it (double quotes, non-ASCII characters escaped): by that printer. */
function rawString(literal: TS.StringLiteral): string {
  literalPrinter ??= {
    printer: ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }),
    file: ts.createSourceFile("literal.ts", "", ts.ScriptTarget.ESNext, false, ts.ScriptKind.TS),
  };
  return literalPrinter.printer.printNode(ts.EmitHint.Unspecified, literal, literalPrinter.file);
}
