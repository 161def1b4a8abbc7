import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { codeBlocks, readPages, type CodeBlock } from "../helpers/markdown.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";

const blocks = readPages().flatMap(codeBlocks);

describe("the TypeScript blocks of the README and docs/", () => {
  it("type-check against the repository's generated clients and flowgen's own types", () => {
    const files = new Map(
      blocks
        .filter((block) => block.lang === "ts")
        .map((block) => [blockFile(block), block] as const),
    );
    expect(files.size).toBeGreaterThan(10);
    expect(typecheckBlocks(files)).toBe("");
  });
});

/**
 * Where a block is checked: the file its first line names (`// handlers/@acme/qa.ts`), else a
 * file of its own in the repository's root, so `./generated/…` imports resolve as they would in a
 * user's project.
 */
function blockFile(block: CodeBlock): string {
  const named = /^\/\/ ([\w@./-]+\.m?ts)\n/.exec(block.code)?.[1];
  const name = named ?? `docs-block-${block.page.replace(/\W/g, "-")}-${block.line}.ts`;
  return path.join(REPO_ROOT, name);
}

/**
 * Type-checks the blocks as files of a strict NodeNext project in the repository's root (its
 * package.json says "type": "module"), with the blocks' text in place of anything on disk.
 * Returns the compiler's messages, each placed at its page and line.
 */
function typecheckBlocks(files: ReadonlyMap<string, CodeBlock>): string {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const text = (file: string) => {
    const block = files.get(file);
    // `export {}` makes every block a module of its own, as each is in a user's project.
    return block === undefined ? undefined : `${block.code}export {};\n`;
  };
  const { fileExists, readFile: read, getSourceFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => text(file) ?? read.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const source = text(file);
    return source === undefined
      ? getSourceFile.call(host, file, language, onError, create)
      : ts.createSourceFile(file, source, language);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      const file = diagnostic.file;
      if (file === undefined) return message;
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const block = files.get(file.fileName);
      const at =
        block === undefined
          ? `${path.relative(REPO_ROOT, file.fileName)}:${line + 1}`
          : `${block.page}:${block.line + line}`;
      return `${at}: ${message}`;
    })
    .join("\n");
}
