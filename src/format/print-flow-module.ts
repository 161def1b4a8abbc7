import { builders, printer, utils } from "prettier/doc";
import type * as TS from "typescript";
import type { CodeLayout } from "./code-layout.js";
import {
  assignment,
  type AssignmentLayout,
  blockComment,
  concat,
  type Doc,
  printString,
} from "./prettier-docs.js";

const { group, hardline, ifBreak, indent, join, line, softline } = builders;

/**
 * Formats a flow module as emitted by ts-morph (emit/flow-module.ts) exactly as prettier would,
 * without prettier's parse: the text is parsed by TypeScript (the copy already loaded on the
 * thread), and the document prettier's estree printer builds for the module's few statement
 * shapes (imports, `export type { … } from`, type aliases, `export const … = { … } as const`, the
 * client factory and its `return runtime.createFlowClient<…>(…)`, JSDoc and line comments, blank
 * lines) is laid out by prettier's own `printDocToString`. Any other text, or a comment anywhere
 * else, gives undefined: prettier formats it. A test compares both ways over flows with names and
 * texts of every length.
 *
 * @example
 * const formatted = printFlowModule(emitted, layout, ts) ?? (await prettier.format(emitted, options));
 */
export function printFlowModule(
  text: string,
  layout: CodeLayout,
  ts: typeof TS,
): string | undefined {
  // ts-morph writes LF line ends; prettier would first turn any other into LF inside comments too.
  if (text.includes("\r")) return undefined;
  // Comments are placed from the text's comment ranges: the JSDoc inside them need not be parsed.
  const file = ts.createSourceFile(
    "module.ts",
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const modulePrinter = new ModulePrinter(text, file, layout, ts);
  const statements = modulePrinter.statements();
  // A comment the printer did not place (inside a statement, after the last one) is left to prettier.
  if (statements === undefined || modulePrinter.commentsPrinted !== countComments(text, ts))
    return undefined;
  const { formatted } = printer.printDocToString([statements, hardline], {
    printWidth: layout.printWidth,
    tabWidth: layout.tabWidth,
    useTabs: layout.useTabs,
  });
  return layout.endOfLine === "lf"
    ? formatted
    : formatted.replaceAll("\n", layout.endOfLine === "crlf" ? "\r\n" : "\r");
}

/** A shape this printer does not know: prettier formats the file. */
class Unknown extends Error {}

class ModulePrinter {
  commentsPrinted = 0;

  constructor(
    private readonly text: string,
    private readonly file: TS.SourceFile,
    private readonly layout: CodeLayout,
    private readonly ts: typeof TS,
  ) {}

  /** The module's statements, each after its leading comments, a blank line kept where the text has one. */
  statements(): Doc | undefined {
    const { file } = this;
    try {
      const parts: Doc[] = [];
      file.statements.forEach((statement, index) => {
        if (index > 0) parts.push(hardline);
        parts.push(...this.leadingComments(statement), this.statement(statement));
        if (index < file.statements.length - 1 && this.nextLineEmpty(statement.end))
          parts.push(hardline);
      });
      return parts;
    } catch (error) {
      if (error instanceof Unknown) return undefined;
      throw error;
    }
  }

  private statement(node: TS.Statement): Doc {
    const { ts } = this;
    if (ts.isImportDeclaration(node)) return this.importDeclaration(node);
    if (ts.isExportDeclaration(node)) return this.exportDeclaration(node);
    const exported = this.exportKeyword(node);
    if (ts.isTypeAliasDeclaration(node)) {
      if (node.typeParameters !== undefined) throw new Unknown();
      return [
        exported,
        this.assignment(["type ", this.identifier(node.name)], " =", node.type, "fluid"),
        ";",
      ];
    }
    if (ts.isVariableStatement(node)) {
      const list = node.declarationList;
      const [declaration] = list.declarations;
      if (
        list.declarations.length !== 1 ||
        declaration === undefined ||
        (list.flags & ts.NodeFlags.Const) === 0 ||
        declaration.initializer === undefined ||
        declaration.type !== undefined
      )
        throw new Unknown();
      if (!ts.isIdentifier(declaration.name) || declaration.exclamationToken !== undefined)
        throw new Unknown();
      return [
        exported,
        group([
          "const",
          " ",
          this.assignment(
            this.identifier(declaration.name),
            " =",
            declaration.initializer,
            "fluid",
          ),
        ]),
        ";",
      ];
    }
    if (ts.isFunctionDeclaration(node)) return [exported, this.functionDeclaration(node)];
    throw new Unknown();
  }

  private exportKeyword(node: TS.Statement): Doc {
    const modifiers = (node as { modifiers?: TS.NodeArray<TS.ModifierLike> }).modifiers ?? [];
    if (modifiers.some((modifier) => modifier.kind !== this.ts.SyntaxKind.ExportKeyword))
      throw new Unknown();
    return modifiers.length > 0 ? "export " : "";
  }

  private importDeclaration(node: TS.ImportDeclaration): Doc {
    const clause = node.importClause;
    if (
      clause === undefined ||
      clause.name !== undefined ||
      clause.namedBindings === undefined ||
      node.attributes !== undefined ||
      (node.modifiers ?? []).length > 0
    )
      throw new Unknown();
    const bindings = clause.namedBindings;
    const specifiers = this.ts.isNamespaceImport(bindings)
      ? ["* as ", this.identifier(bindings.name)]
      : this.namedSpecifiers(bindings.elements);
    return [
      "import",
      clause.isTypeOnly ? " type" : "",
      " ",
      specifiers,
      " from ",
      this.string(node.moduleSpecifier),
      ";",
    ];
  }

  private exportDeclaration(node: TS.ExportDeclaration): Doc {
    const clause = node.exportClause;
    if (
      clause === undefined ||
      !this.ts.isNamedExports(clause) ||
      node.attributes !== undefined ||
      (node.modifiers ?? []).length > 0
    )
      throw new Unknown();
    const source: Doc =
      node.moduleSpecifier === undefined ? "" : [" from ", this.string(node.moduleSpecifier)];
    return [
      "export",
      node.isTypeOnly ? " type" : "",
      " ",
      this.namedSpecifiers(clause.elements),
      source,
      ";",
    ];
  }

  /** `{ a, b as c }`: one specifier stays on the line, several break one per line when they do not fit. */
  private namedSpecifiers(elements: readonly (TS.ImportSpecifier | TS.ExportSpecifier)[]): Doc {
    const printed = elements.map((element) => {
      const name = this.identifier(element.name);
      const specifier =
        element.propertyName === undefined
          ? name
          : [this.moduleExportName(element.propertyName), " as ", name];
      return concat([element.isTypeOnly ? "type " : "", specifier]);
    });
    if (printed.length === 0) return "{}";
    const space = this.layout.bracketSpacing ? " " : "";
    if (printed.length === 1) return concat(["{", space, printed[0] as Doc, space, "}"]);
    const spacing = this.layout.bracketSpacing ? line : softline;
    return group([
      "{",
      indent([spacing, join([",", line], printed)]),
      this.layout.trailingComma === "none" ? "" : ifBreak(","),
      spacing,
      "}",
    ]);
  }

  private moduleExportName(name: TS.ModuleExportName): Doc {
    return this.ts.isIdentifier(name) ? this.identifier(name) : this.string(name);
  }

  private functionDeclaration(node: TS.FunctionDeclaration): Doc {
    const { ts } = this;
    if (
      node.name === undefined ||
      node.typeParameters !== undefined ||
      node.asteriskToken !== undefined ||
      node.body === undefined ||
      node.type === undefined
    )
      throw new Unknown();
    if ((node.modifiers ?? []).some((modifier) => modifier.kind !== ts.SyntaxKind.ExportKeyword))
      throw new Unknown();
    const [parameter] = node.parameters;
    if (
      node.parameters.length !== 1 ||
      parameter === undefined ||
      !ts.isIdentifier(parameter.name) ||
      parameter.type === undefined ||
      parameter.dotDotDotToken !== undefined ||
      parameter.questionToken !== undefined ||
      (parameter.modifiers ?? []).length > 0
    )
      throw new Unknown();
    const left: Doc = [this.identifier(parameter.name), ": ", this.type(parameter.type)];
    const printedParameter =
      parameter.initializer === undefined
        ? left
        : [left, " = ", this.expression(parameter.initializer)];
    // Prettier hugs a lone parameter only when it is an object pattern or typed by an object type: not here.
    const parameters: Doc = [
      "(",
      indent([softline, printedParameter]),
      this.layout.trailingComma === "all" ? ifBreak(",") : "",
      softline,
      ")",
    ];
    return [
      "function ",
      this.identifier(node.name),
      group([parameters, ": ", this.type(node.type)]),
      " ",
      this.block(node.body),
    ];
  }

  private block(node: TS.Block): Doc {
    if (node.statements.length === 0) throw new Unknown();
    const statements = node.statements.map((statement, index): Doc => {
      const printed = this.blockStatement(statement);
      return index < node.statements.length - 1 && this.nextLineEmpty(statement.end)
        ? [printed, hardline]
        : printed;
    });
    return ["{", indent([hardline, join(hardline, statements)]), hardline, "}"];
  }

  private blockStatement(node: TS.Statement): Doc {
    if (!this.ts.isReturnStatement(node) || node.expression === undefined) throw new Unknown();
    const argument = node.expression;
    if (
      this.ts.isBinaryExpression(argument) ||
      this.ts.isCommaListExpression(argument) ||
      this.ts.isParenthesizedExpression(argument)
    )
      throw new Unknown();
    return ["return ", this.expression(argument), ";"];
  }

  /** `left op right` in one of prettier's assignment layouts. */
  private assignment(left: Doc, operator: string, right: TS.Node, layout: AssignmentLayout): Doc {
    return assignment(
      left,
      operator,
      this.ts.isTypeNode(right) ? this.type(right) : this.expression(right as TS.Expression),
      layout,
    );
  }

  private expression(node: TS.Expression): Doc {
    const { ts } = this;
    if (ts.isIdentifier(node)) return this.identifier(node);
    if (ts.isStringLiteral(node)) return this.string(node);
    if (ts.isObjectLiteralExpression(node)) return this.object(node);
    if (ts.isAsExpression(node)) {
      if (!ts.isTypeReferenceNode(node.type) || node.type.typeArguments !== undefined)
        throw new Unknown();
      const { typeName } = node.type;
      // `as const`, or an identifier said to be of a named type (`x as runtime.FlowValidators`).
      if (ts.isIdentifier(typeName) && typeName.text === "const")
        return [this.expression(node.expression), " as const"];
      if (!ts.isIdentifier(node.expression)) throw new Unknown();
      return [this.expression(node.expression), " as ", this.type(node.type)];
    }
    if (ts.isCallExpression(node)) return this.call(node);
    throw new Unknown();
  }

  /**
   * `object.method<…>(…)`: a member chain of one call, which prettier keeps on one line as a group;
   * its type arguments and arguments each break on their own.
   */
  private call(node: TS.CallExpression): Doc {
    const { ts } = this;
    const callee = node.expression;
    if (
      node.questionDotToken !== undefined ||
      !ts.isPropertyAccessExpression(callee) ||
      !ts.isIdentifier(callee.expression) ||
      !ts.isIdentifier(callee.name) ||
      callee.questionDotToken !== undefined
    )
      throw new Unknown();
    const typeArguments =
      node.typeArguments === undefined ? "" : this.typeArguments(node.typeArguments);
    const args = node.arguments.map((argument) => {
      if (
        !ts.isIdentifier(argument) &&
        !ts.isStringLiteral(argument) &&
        !ts.isObjectLiteralExpression(argument)
      )
        throw new Unknown();
      return this.expression(argument);
    });
    const printedArguments: Doc =
      args.length === 0
        ? "()"
        : group(
            [
              "(",
              indent([softline, join([",", line], args)]),
              this.layout.trailingComma === "all" ? ifBreak(",") : "",
              softline,
              ")",
            ],
            { shouldBreak: args.some((arg) => utils.willBreak(arg)) },
          );
    return group([
      this.identifier(callee.expression),
      ".",
      this.identifier(callee.name),
      typeArguments,
      printedArguments,
    ]);
  }

  /** `{ key: value, … }`: expanded when the text starts a new line after `{`, else a group that breaks one per line. */
  private object(node: TS.ObjectLiteralExpression): Doc {
    const { ts } = this;
    if (node.properties.length === 0) return "{}";
    const properties = node.properties.map((property) => {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name))
        throw new Unknown();
      const key = this.identifier(property.name);
      const value = property.initializer;
      if (!ts.isIdentifier(value) && !ts.isStringLiteral(value) && !ts.isAsExpression(value))
        throw new Unknown();
      // Prettier's layouts for `key: value`: a key narrower than tabWidth + 3 never breaks after the
      // colon; a longer key moves a string to the next line when it does not fit; any other value is fluid.
      const short = key.length < this.layout.tabWidth + 3;
      return this.assignment(
        key,
        ":",
        value,
        short
          ? "never-break-after-operator"
          : ts.isStringLiteral(value)
            ? "break-after-operator"
            : "fluid",
      );
    });
    const first = node.properties[0] as TS.ObjectLiteralElement;
    const expanded = /\n/.test(this.text.slice(this.start(node), this.start(first)));
    const spacing = this.layout.bracketSpacing ? line : softline;
    return group(
      [
        "{",
        indent([spacing, join([",", line], properties)]),
        this.layout.trailingComma === "none" ? "" : ifBreak(","),
        spacing,
        "}",
      ],
      { shouldBreak: expanded },
    );
  }

  private type(node: TS.TypeNode): Doc {
    const { ts } = this;
    if (ts.isTypeReferenceNode(node))
      return concat([
        this.entityName(node.typeName),
        node.typeArguments === undefined ? "" : this.typeArguments(node.typeArguments),
      ]);
    if (ts.isIndexedAccessTypeNode(node))
      return concat([this.type(node.objectType), "[", this.type(node.indexType), "]"]);
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal))
      return this.string(node.literal);
    if (node.kind >= ts.SyntaxKind.FirstKeyword && node.kind <= ts.SyntaxKind.LastKeyword)
      return this.source(node);
    throw new Unknown();
  }

  /** Type arguments: on one line when there is one simple argument, else a group that breaks one per line. */
  private typeArguments(types: readonly TS.TypeNode[]): Doc {
    const printed = types.map((type) => this.type(type));
    const [only] = types;
    const simple =
      only !== undefined &&
      types.length === 1 &&
      ((this.ts.isTypeReferenceNode(only) && only.typeArguments === undefined) ||
        this.ts.isLiteralTypeNode(only) ||
        (only.kind >= this.ts.SyntaxKind.FirstKeyword &&
          only.kind <= this.ts.SyntaxKind.LastKeyword));
    if (simple) return concat(["<", printed[0] as Doc, ">"]);
    return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
  }

  private entityName(name: TS.EntityName): Doc {
    return this.ts.isIdentifier(name)
      ? this.identifier(name)
      : concat([this.entityName(name.left), ".", this.identifier(name.right)]);
  }

  private identifier(
    node: TS.Identifier | TS.PrivateIdentifier | TS.BindingName | TS.PropertyName,
  ): string {
    if (!this.ts.isIdentifier(node)) throw new Unknown();
    const text = this.source(node);
    // Prettier prints an identifier by its name: one written with escapes would change.
    if (text.includes("\\")) throw new Unknown();
    return text;
  }

  private string(node: TS.Expression | TS.StringLiteral): string {
    if (!this.ts.isStringLiteral(node)) throw new Unknown();
    return printString(this.source(node), this.layout);
  }

  private source(node: TS.Node): string {
    return this.text.slice(this.start(node), node.end);
  }

  private start(node: TS.Node): number {
    return node.getStart(this.file);
  }

  /** The comments before a top-level statement, as prettier prints a statement's leading comments. */
  private leadingComments(node: TS.Statement): Doc[] {
    const ranges = this.ts.getLeadingCommentRanges(this.text, node.pos) ?? [];
    return ranges.map((range) => {
      this.commentsPrinted++;
      const text = this.text.slice(range.pos, range.end);
      const printed =
        range.kind === this.ts.SyntaxKind.SingleLineCommentTrivia
          ? text.trimEnd()
          : blockComment(text);
      if (printed === undefined || !/^[ \t]*\r?\n/.test(this.text.slice(range.end)))
        throw new Unknown();
      return this.nextLineEmpty(range.end) ? [printed, hardline, hardline] : [printed, hardline];
    });
  }

  /** Prettier's `isNextLineEmpty`: after `index`, the rest of the line is blank and so is the next one. */
  private nextLineEmpty(index: number): boolean {
    const rest = this.text.slice(index);
    return /^[ \t]*;?[ \t]*\r?\n[ \t]*\r?\n/.test(rest);
  }
}

/** Every comment in the text, by TypeScript's scanner: a comment the printer did not place means prettier formats the file. */
function countComments(text: string, ts: typeof TS): number {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    ts.LanguageVariant.Standard,
    text,
  );
  let count = 0;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (
      token === ts.SyntaxKind.SingleLineCommentTrivia ||
      token === ts.SyntaxKind.MultiLineCommentTrivia
    )
      count++;
  }
  return count;
}
