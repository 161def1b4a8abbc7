import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A regular expression literal in a source file. */
export interface RegexLiteral {
  /** Relative to `root`, with its line: `src/serve/keys.ts:44`. */
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

/** What a set of source files holds: their regular expression literals, and any `RegExp(…)` built at run time. */
export interface RegexSurvey {
  readonly files: readonly string[];
  readonly literals: readonly RegexLiteral[];
  /** Places that call `RegExp` or `new RegExp`: their patterns cannot be read from the source. */
  readonly constructed: readonly string[];
}

/**
 * The regular expressions of `entries`, found by TypeScript's parser; with `followImports`, also
 * those of every module they import at run time through relative paths (`import type` and
 * type-only names are skipped), and so on.
 */
export function surveyRegexes(
  root: string,
  entries: readonly string[],
  followImports: boolean,
): RegexSurvey {
  const seen = new Set<string>();
  const literals: RegexLiteral[] = [];
  const constructed: string[] = [];
  const queue = entries.map((entry) => path.resolve(root, entry));
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const where = (node: ts.Node) =>
      `${path.relative(root, file)}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const slash = node.text.lastIndexOf("/");
        literals.push({
          where: where(node),
          source: node.text.slice(1, slash),
          flags: node.text.slice(slash + 1),
        });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "RegExp"
      ) {
        constructed.push(where(node));
      } else if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
        const imported = runtimeImport(node);
        if (followImports && imported !== undefined)
          queue.push(path.resolve(path.dirname(file), imported));
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return {
    files: [...seen].map((file) => path.relative(root, file)).sort(),
    literals,
    constructed,
  };
}

/** The `.ts` file a relative import or re-export loads at run time, or undefined when it loads none. */
function runtimeImport(node: ts.ImportDeclaration | ts.ExportDeclaration): string | undefined {
  const specifier = node.moduleSpecifier;
  if (specifier === undefined || !ts.isStringLiteral(specifier)) return undefined;
  if (!specifier.text.startsWith(".")) return undefined;
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause?.isTypeOnly) return undefined;
    const named = clause?.namedBindings;
    const onlyTypes =
      clause !== undefined &&
      clause.name === undefined &&
      named !== undefined &&
      ts.isNamedImports(named) &&
      named.elements.length > 0 &&
      named.elements.every((element) => element.isTypeOnly);
    if (onlyTypes) return undefined;
  } else if (node.isTypeOnly) {
    return undefined;
  }
  return specifier.text.replace(/\.js$/, ".ts");
}
