import ts from "typescript";
import { compareText } from "../issues.js";

/** The names a module exports, split by meaning: values (functions, classes, consts) and types only. */
export interface RuntimeExports {
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/**
 * Reads the exported names of the runtime's entry module from its source, so the generated
 * `index.ts` re-exports exactly what the runtime has and no flow is given a name the runtime
 * already uses, however the runtime changes. `export … from "./x.js"` and `export * from` are
 * followed through `readModule`, which returns a sibling module's source.
 *
 * @example
 * const { values, types } = readRuntimeExports(runtimeSource, (specifier) => readFileSync(new URL(specifier, entry), "utf8"));
 */
export function readRuntimeExports(source: string, readModule: (specifier: string) => string | undefined = () => undefined): RuntimeExports {
  return exportsOf(source, readModule, new Set());
}

function exportsOf(source: string, readModule: (specifier: string) => string | undefined, seen: Set<string>): RuntimeExports {
  const values = new Set<string>();
  const types = new Set<string>();
  const file = ts.createSourceFile("runtime.ts", source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const local = localDeclarationKinds(file);
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      const specifier = statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      // A module that re-exports from one already being read (a cycle) adds nothing new.
      const cycle = specifier !== undefined && seen.has(specifier);
      const other = specifier === undefined || cycle ? undefined : readModule(specifier);
      if (specifier !== undefined) seen.add(specifier);
      const otherExports = other === undefined ? undefined : exportsOf(other, readModule, seen);
      if (statement.exportClause === undefined) {
        // `export * from "./x.js"`: everything that module exports.
        if (cycle) continue;
        if (otherExports === undefined) throw new Error(`bug: the runtime re-exports everything from ${specifier ?? "?"}, which could not be read`);
        otherExports.values.forEach((name) => (statement.isTypeOnly ? types : values).add(name));
        otherExports.types.forEach((name) => types.add(name));
      } else if (ts.isNamespaceExport(statement.exportClause)) {
        (statement.isTypeOnly ? types : values).add(statement.exportClause.name.text);
      } else {
        for (const element of statement.exportClause.elements) {
          const original = (element.propertyName ?? element.name).text;
          const isType = statement.isTypeOnly || element.isTypeOnly || (otherExports ?? local).types.includes(original);
          (isType ? types : values).add(element.name.text);
        }
      }
      continue;
    }
    if (!hasExportModifier(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) values.add(declaration.name.text);
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name) {
      types.add(statement.name.text);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      values.add(statement.name.text);
    }
  }
  for (const name of values) types.delete(name);
  return { values: [...values].sort(compareText), types: [...types].sort(compareText) };
}

/** Names declared in the file that are types only, for `export { name }` lists. */
function localDeclarationKinds(file: ts.SourceFile): RuntimeExports {
  const types = file.statements.filter((s) => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)).map((s) => (s as ts.InterfaceDeclaration).name.text);
  return { values: [], types };
}

function hasExportModifier(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}
