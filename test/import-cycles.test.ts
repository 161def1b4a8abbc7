import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const SRC = path.join(REPO_ROOT, "src");

/**
 * Each module of src/ with the src/ modules it imports at load time. Type-only imports are erased and
 * a dynamic `import()` runs later, so neither makes the evaluation order matter; a static value
 * import both ways does (the one that loads second sees the first half-initialised).
 */
async function readImportGraph(): Promise<Map<string, string[]>> {
  const files = (await readdir(SRC, { recursive: true })).filter((file) => file.endsWith(".ts"));
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const text = await readFile(path.join(SRC, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    const imported = source.statements
      .filter((statement) => ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
      .filter((statement) => loadsValues(statement))
      .map((statement) => (statement.moduleSpecifier as ts.StringLiteral | undefined)?.text ?? "")
      .filter((name) => name.startsWith("."))
      .map((name) => path.posix.join(path.posix.dirname(file), name.replace(/\.js$/, ".ts")));
    graph.set(file, imported);
  }
  return graph;
}

/** Whether an import or re-export is still there after type erasure. */
function loadsValues(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause;
    if (statement.isTypeOnly) return false;
    return !(clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
  }
  const clause = statement.importClause;
  if (clause === undefined) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name !== undefined) return true;
  const bindings = clause.namedBindings;
  return !(bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly));
}

/** Every cycle a depth-first walk meets, as `a.ts -> b.ts -> a.ts`. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const start = path.indexOf(next);
      if (start >= 0) cycles.push([...path.slice(start), next].join(" -> "));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}

describe("src/ imports", () => {
  it("form no cycle of modules loading each other", async () => {
    expect(findCycles(await readImportGraph())).toEqual([]);
  });

  it("a cycle is found when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(findCycles(graph)).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"]);
  });
});
