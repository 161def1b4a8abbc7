import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { emitFlowModule, type EmitOptions } from "../../src/emit/flow-module.js";
import { tsMorph } from "../../src/emit/ts-morph-entry.js";
import { codeLayoutFor } from "../../src/format/code-layout.js";
import { printFlowModule } from "../../src/format/print-flow-module.js";
import { buildModel } from "../../src/model/build-model.js";
import { loadSpecs } from "../../src/spec/load-specs.js";
import { ts as typescript } from "../../src/types/openapi-typescript-entry.js";
import { syntheticSpecs } from "../helpers/synthetic-specs.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";

const DEFAULTS: prettier.Options = {
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  parser: "babel-ts",
};
const PLAIN: EmitOptions = { baseUrl: undefined, validators: false };
// ts-morph's TypeScript (the main thread's) and the typescript package (the worker threads').
const PARSERS = [tsMorph.ts as unknown as typeof typescript, typescript];

/** Every flow module of a specs folder, as ts-morph emits it. */
async function emittedModules(
  specsDir: string,
  options: EmitOptions,
): Promise<{ name: string; text: string }[]> {
  const loaded = await loadSpecs(specsDir, "/");
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
  return buildModel(loaded.specs).flows.map((flow) => ({
    name: flow.specPath,
    text: emitFlowModule(flow, options),
  }));
}

/** Modules where `printFlowModule` differs from prettier (or leaves the module to it), by name. */
async function differing(
  modules: readonly { name: string; text: string }[],
  options: prettier.Options,
): Promise<string[]> {
  const layout = codeLayoutFor(options);
  if (layout === undefined) throw new Error(`no layout for ${JSON.stringify(options)}`);
  const names: string[] = [];
  for (const module of modules) {
    const expected = await prettier.format(module.text, options);
    for (const ts of PARSERS)
      if (printFlowModule(module.text, layout, ts) !== expected) names.push(module.name);
  }
  return names;
}

/** Flows whose names run from one character to the longest allowed, under a short and a long org. */
function namesOfEveryLength(): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  const spec = {
    input: { type: "object", properties: { text: { type: "string" } } },
    output: { type: "object" },
  };
  for (const org of ["x", "a-rather-long-organisation-name"]) {
    for (let length = 1; length <= 63; length += 3)
      files[`specs/@${org}/${"f".repeat(length)}.json`] = spec;
  }
  return files;
}

describe("printFlowModule", () => {
  it("prints the repo's, the goldens' and the real-world fixture's flow modules exactly as prettier does", async () => {
    const dirs = [
      "specs",
      "test/golden/edge-cases/specs",
      "test/golden/collisions/specs",
      "test/fixtures/real-world/specs",
    ];
    const modules = (
      await Promise.all(dirs.map((dir) => emittedModules(path.join(REPO_ROOT, dir), PLAIN)))
    ).flat();
    expect(modules.length).toBeGreaterThan(20);
    expect(await differing(modules, DEFAULTS)).toEqual([]);
  });

  it("prints flows with names of every length as prettier does, so every line that can wrap does at its own width", async () => {
    const dir = path.join(await tempProject(namesOfEveryLength()), "specs");
    const withOptions = await emittedModules(dir, {
      baseUrl: "https://flows.example.com/a/base/url/long/enough/to/wrap",
      validators: true,
    });
    const modules = [...(await emittedModules(dir, PLAIN)), ...withOptions];
    for (const options of [
      DEFAULTS,
      { ...DEFAULTS, printWidth: 60, trailingComma: "es5" as const },
      { ...DEFAULTS, tabWidth: 4, bracketSpacing: false, trailingComma: "none" as const },
    ]) {
      expect({ options, differing: await differing(modules, options) }).toEqual({
        options,
        differing: [],
      });
    }
  });

  it("prints a synthetic project's modules (descriptions, deprecations, examples) as prettier does under other options", async () => {
    const modules = await emittedModules(
      path.join(await tempProject(syntheticSpecs(30, 23)), "specs"),
      PLAIN,
    );
    for (const options of [
      DEFAULTS,
      { ...DEFAULTS, printWidth: 40, singleQuote: true },
      { ...DEFAULTS, useTabs: true, endOfLine: "crlf" as const },
    ]) {
      expect({ options, differing: await differing(modules, options) }).toEqual({
        options,
        differing: [],
      });
    }
  });

  it("leaves any other code, and a comment where the modules have none, to prettier", () => {
    const layout = codeLayoutFor(DEFAULTS) as NonNullable<ReturnType<typeof codeLayoutFor>>;
    const module =
      '// Generated by flowgen.\n\nimport * as runtime from "../runtime/index.js";\nexport type A = runtime.X;\n';
    expect(printFlowModule(module, layout, typescript)).toBe(module);
    for (const text of [
      `${module}export class B {}\n`,
      `${module}export type C = string; // trailing\n`,
      module.replace("runtime.X", "runtime.X /* inside */"),
      `${module}let d = 1;\n`,
      `${module}export function e(a: number): number {\n  return a + 1;\n}\n`,
      module.replaceAll("\n", "\r\n"),
      module.replace("export type A", "export type \\u0041"),
    ]) {
      expect({ text, printed: printFlowModule(text, layout, typescript) }).toEqual({
        text,
        printed: undefined,
      });
    }
  });
});
