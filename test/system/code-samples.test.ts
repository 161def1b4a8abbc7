import { readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/temp-dir.js";

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
type Document = {
  paths: Record<string, { post: { "x-codeSamples"?: CodeSample[] } }>;
};

/** Type-checks files placed in the repository's root (in memory only), against `generated/`. */
function typeErrors(files: ReadonlyMap<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (file) => files.get(file) ?? read(file);
  host.fileExists = (file) => files.has(file) || exists(file);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("x-codeSamples", () => {
  it("every flow shows a TypeScript call with its generated client, which compiles", async () => {
    const document = JSON.parse(
      await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8"),
    ) as Document;
    const files = new Map<string, string>();
    for (const [flowPath, { post }] of Object.entries(document.paths)) {
      const samples = post["x-codeSamples"] ?? [];
      expect(samples, flowPath).toEqual([
        expect.objectContaining({ lang: "TypeScript", label: "flowgen client" }),
      ]);
      const id = flowPath.replace("/v1/", "");
      expect(samples[0]!.source).toContain(`from "./generated/${id}.js";`);
      // An ES module with top-level await: the file needs an export to be one.
      files.set(
        path.join(REPO_ROOT, `sample-${files.size}.mts`).replaceAll("\\", "/"),
        `${samples[0]!.source}export { output };\n`,
      );
    }
    expect(files.size).toBe(5);
    expect(typeErrors(files)).toEqual([]);
  });
});
