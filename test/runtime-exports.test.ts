import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRuntimeExports } from "../src/model/runtime-exports.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

describe("the runtime's exports, read from its source", () => {
  it("are exactly the values the runtime module really exports", async () => {
    const source = await readFile(path.join(REPO_ROOT, "templates/runtime.ts"), "utf8");
    const runtime = (await import("../templates/runtime.js")) as Record<string, unknown>;
    const { values, types } = readRuntimeExports(source);
    expect(values).toEqual(Object.keys(runtime).sort());
    expect(types).toContain("FlowClient");
    expect(types.filter((name) => values.includes(name))).toEqual([]);
  });

  it("follows re-exports, type-only markers and cycles between modules", () => {
    const modules: Record<string, string> = {
      "./errors.js": 'export class FlowError extends Error {}\nexport interface FlowErrorBody { code: string }\nexport * from "./index.js";\n',
      "./client.js": "export function createFlowClient() {}\nexport type FlowClient = {};\nconst hidden = 1;\n",
    };
    const entry = [
      'export * from "./errors.js";',
      'export { createFlowClient as makeClient, type FlowClient } from "./client.js";',
      "interface Local { a: 1 }",
      "const local = 1;",
      "export { Local, local };",
      "export const one = 1, two = 2;",
      "export enum Kind { A }",
    ].join("\n");
    modules["./index.js"] = entry;
    expect(readRuntimeExports(entry, (specifier) => modules[specifier])).toEqual({
      values: ["FlowError", "Kind", "local", "makeClient", "one", "two"],
      types: ["FlowClient", "FlowErrorBody", "Local"],
    });
  });
});
