import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needsModuleMarker } from "../src/config/module-marker.js";
import { tempProject } from "./helpers/temp-dir.js";

describe("the module marker of the output folder", () => {
  it("follows a workspace package's tsconfig to the monorepo's base, from wherever the run starts", async () => {
    const dir = await tempProject({
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/package.json": { private: true, workspaces: ["packages/*"] },
      "repo/tsconfig.base.json": { compilerOptions: { verbatimModuleSyntax: true } },
      "repo/packages/app/package.json": { name: "app", type: "commonjs" },
      "repo/packages/app/tsconfig.json": { extends: "../../tsconfig.base.json" },
    });
    const repo = path.join(dir, "repo");
    const app = path.join(repo, "packages/app");
    expect(await needsModuleMarker(app, "generated")).toBe(true);
    expect(await needsModuleMarker(repo, "packages/app/generated")).toBe(true);
  });

  it("follows a solution-style tsconfig (files: [], references) to the projects it names", async () => {
    const dir = await tempProject({
      "package.json": { name: "app" },
      "tsconfig.json": {
        files: [],
        references: [{ path: "./tsconfig.node.json" }, { path: "./tsconfig.app.json" }],
      },
      "tsconfig.node.json": {
        compilerOptions: { module: "nodenext", verbatimModuleSyntax: true },
        include: ["vite.config.ts"],
      },
      "tsconfig.app.json": { compilerOptions: { module: "nodenext" }, include: ["src"] },
    });
    // The app's project takes src in, which imports generated/; the node one only vite.config.ts.
    expect(await needsModuleMarker(dir, "generated")).toBe(false);
    await writeFile(
      path.join(dir, "tsconfig.app.json"),
      JSON.stringify({ compilerOptions: { verbatimModuleSyntax: true }, include: ["src"] }),
    );
    expect(await needsModuleMarker(dir, "generated")).toBe(true);
  });

  it("reads no tsconfig above the project when it is in no repository", async () => {
    const dir = await tempProject({
      "tsconfig.base.json": { compilerOptions: { verbatimModuleSyntax: true } },
      "app/package.json": { name: "app", type: "commonjs" },
      "app/tsconfig.json": { extends: "../tsconfig.base.json" },
    });
    expect(await needsModuleMarker(path.join(dir, "app"), "generated")).toBe(false);
  });
});
