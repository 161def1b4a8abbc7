import { execFile } from "node:child_process";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_PRINTERS_VARIABLE, checkHandPrinted } from "../src/format/check-printers.js";
import { findProjectPrettier } from "../src/format/project-prettier.js";
import { installOtherPrettier, otherPrettierVersion } from "./helpers/other-prettier.js";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

/** A prettier other than flowgen's own (3.0.3), whose output differs from it on flowgen's runtime files. */
const OTHER_VERSION = await otherPrettierVersion();

/** Overrides by file name and by folder, as a project's pre-commit hook would apply them. */
const PRETTIER_CONFIG = {
  overrides: [
    { files: "*.types.ts", options: { printWidth: 40 } },
    { files: "generated/@acme/**", options: { singleQuote: true, semi: false } },
    { files: "*.json", options: { useTabs: true } },
  ],
};

function project(extra: Record<string, unknown> = {}): Promise<string> {
  return tempProject({
    "package.json": { name: "app", type: "module", dependencies: { "openapi-fetch": "^0.17.0" } },
    ".prettierrc.json": PRETTIER_CONFIG,
    "specs/@acme/qa.json": {
      input: {
        type: "object",
        required: ["question"],
        properties: {
          question: { type: "string", description: "What to ask, in one sentence or two." },
          options: { type: "array", items: { type: "string", enum: ["first", "second", "third"] } },
        },
      },
      output: { type: "object", properties: { answer: { type: "string" } } },
    },
    "specs/@globex/search.json": {
      input: { type: "object", properties: { q: { type: "string", minLength: 1 } } },
      output: {
        type: "object",
        properties: { hits: { type: "array", items: { type: "string" } } },
      },
    },
    ...extra,
  });
}

/** `prettier --check generated` with the prettier in `bin`, run in `dir` as the project's hook would. */
function prettierCheck(dir: string, bin: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "--check", "generated"],
      { cwd: dir },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

async function readTree(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) =>
    e.isFile(),
  );
  const tree = new Map<string, string>();
  for (const file of files) {
    const full = path.join(file.parentPath, file.name);
    tree.set(path.relative(dir, full), await readFile(full, "utf8"));
  }
  return tree;
}

describe("prettier as the project's formatter of record", () => {
  it("resolves options per output file, overrides by name and by folder included, so prettier --check passes", async () => {
    const dir = await project();
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const own = path.join(REPO_ROOT, "node_modules/prettier/bin/prettier.cjs");
    expect(await prettierCheck(dir, own)).toMatchObject({ code: 0 });
    const types = await readFile(path.join(dir, "generated/@globex/search.types.ts"), "utf8");
    const module = await readFile(path.join(dir, "generated/@acme/qa.ts"), "utf8");
    // The override on generated/@acme/** reaches that folder's files only.
    expect(module).toContain("from '../runtime/index.js'");
    expect(await readFile(path.join(dir, "generated/@globex/search.ts"), "utf8")).toContain(
      'from "../runtime/index.js";',
    );
    expect(types.split("\n").filter((line) => line.length > 40 && !/["'/]/.test(line))).toEqual([]);
    expect(await readFile(path.join(dir, "generated/openapi.json"), "utf8")).toMatch(/^\{\n\t"/);
    expect((await flowgen(dir, "generate", "--check")).code).toBe(0);
  });

  it("formats again from a warm render cache when the prettier config or an .editorconfig changes", async () => {
    const dir = await project();
    const own = path.join(REPO_ROOT, "node_modules/prettier/bin/prettier.cjs");
    expect((await flowgen(dir, "generate")).code).toBe(0);
    // Cached output was made under the old options: the edited override must reach it.
    await writeFile(
      path.join(dir, ".prettierrc.json"),
      JSON.stringify({
        overrides: [...PRETTIER_CONFIG.overrides, { files: "*.ts", options: { tabWidth: 4 } }],
      }),
    );
    expect((await flowgen(dir, "generate", "--check")).code).toBe(1);
    expect((await flowgen(dir, "generate")).code).toBe(0);
    expect(await prettierCheck(dir, own)).toMatchObject({ code: 0 });
    expect(await readFile(path.join(dir, "generated/@globex/search.ts"), "utf8")).toMatch(
      /\n {4}\S/,
    );
    // So must an .editorconfig added at the project's root.
    await writeFile(path.join(dir, ".editorconfig"), "root = true\n\n[*.ts]\nindent_style = tab\n");
    expect((await flowgen(dir, "generate")).code).toBe(0);
    expect(await prettierCheck(dir, own)).toMatchObject({ code: 0 });
    expect(await readFile(path.join(dir, "generated/@globex/search.ts"), "utf8")).toMatch(/\n\t\S/);
  });

  it(`formats with the project's own prettier ${OTHER_VERSION}, so its --check passes, and records its version`, async () => {
    const dir = await project();
    await installOtherPrettier(dir);
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const theirs = path.join(dir, "node_modules/prettier/bin/prettier.cjs");
    expect(await prettierCheck(dir, theirs)).toMatchObject({ code: 0 });
    expect((await flowgen(dir, "generate", "--check")).code).toBe(0);

    // The same project formatted by flowgen's own prettier: the runtime comes out differently.
    const withOwn = await project();
    await flowgen(withOwn, "generate");
    const mine = await readTree(path.join(withOwn, "generated"));
    const differ = [...(await readTree(path.join(dir, "generated")))].filter(
      ([file, text]) => file.startsWith("runtime/") && mine.get(file) !== text,
    );
    expect(differ.length).toBeGreaterThan(0);
    expect((await prettierCheck(withOwn, theirs)).code).toBe(1);

    // Its version is in the manifest's fingerprint: without it, not even a trusted manifest is current.
    await rm(path.join(dir, "node_modules/prettier"), { recursive: true });
    const trusted = await flowgen(dir, "generate", "--check", "--trust-manifest");
    expect(trusted.code).toBe(1);
    expect(trusted.stderr).toContain("changed  generated/runtime/");
  });

  it("passes over a project prettier that is not 3.x: flowgen's own formats, and the other is never loaded", async () => {
    const dir = await project({
      "node_modules/prettier/package.json": {
        name: "prettier",
        version: "2.8.8",
        main: "index.js",
      },
      "node_modules/prettier/index.js": "throw new Error('prettier 2 must not be loaded');\n",
    });
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const own = path.join(REPO_ROOT, "node_modules/prettier/bin/prettier.cjs");
    expect((await prettierCheck(dir, own)).code).toBe(0);
  });
});

describe("the check of the fast printers", () => {
  it("is on for the whole test suite, and fails a file a printer prints unlike prettier", async () => {
    expect(process.env[CHECK_PRINTERS_VARIABLE]).toBe("1");
    const ref = await findProjectPrettier(path.join(REPO_ROOT, "generated"));
    expect(ref.own).toBe(true);
    const options = { parser: "babel-ts" };
    await expect(
      checkHandPrinted("x.ts", "const a = 1;\n", "const a=1", options, ref),
    ).resolves.toBeUndefined();
    await expect(
      checkHandPrinted("x.ts", "const a = 1\n", "const a=1", options, ref),
    ).rejects.toThrow(
      `flowgen's printer and prettier ${ref.version} format x.ts differently, first at line 1:\n  printer:  "const a = 1"\n  prettier: "const a = 1;"`,
    );
  });
});
