import { execFile } from "node:child_process";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OpenAPIV3_1 } from "openapi-types";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { readRuntimeTemplates } from "../src/runtime-templates.js";
import { runCli } from "./helpers/run-cli.js";
import { cachedProject } from "./helpers/render-cache.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";
import { outputFileCount } from "./helpers/output-files.js";

/** The runtime's files in an output folder, and the file count of a two-flow project. */
const RUNTIME_FILES = (await readRuntimeTemplates()).map((file) => `runtime/${file.name}`);
const TWO_FLOW_FILES = outputFileCount(2);

const BIN = path.join(REPO_ROOT, "bin/flowgen.js");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const flowgen = runCli;

/** Runs bin/flowgen.js as a process: for what only a process shows (the version, exit codes). */
function spawnFlowgen(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

async function tree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
  files.sort();
  return Object.fromEntries(
    await Promise.all(
      files.map(async (f): Promise<[string, string]> => [
        f,
        await readFile(path.join(dir, f), "utf8"),
      ]),
    ),
  );
}

/** Every generated file is as `prettier --check` with the project's config wants it. */
async function expectPrettierClean(dir: string) {
  const files = Object.entries(await tree(path.join(dir, "generated")));
  const unformatted: string[] = [];
  for (const [name, text] of files) {
    const filepath = path.join(dir, "generated", name);
    const options = await prettier.resolveConfig(filepath, { editorconfig: true });
    if (!(await prettier.check(text, { ...options, filepath }))) unformatted.push(name);
  }
  expect(files.length).toBeGreaterThan(3);
  expect(unformatted).toEqual([]);
}

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
};
const search = {
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object" },
};

describe("flowgen CLI", () => {
  it("generates, then finds nothing to do, and --check agrees", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/search.yaml": "input: {type: object}\noutput: {type: object}\n",
    });
    const first = await flowgen(dir, "generate");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^flowgen: 2 flows → generated: ${TWO_FLOW_FILES} added, 0 changed, 0 removed, 0 unchanged \\(\\d+\\.\\d\\ds\\)\\n$`,
      ),
    );
    expect(Object.keys(await tree(path.join(dir, "generated")))).toEqual([
      ".flowgen-manifest.json",
      "@acme/qa.ts",
      "@acme/qa.types.ts",
      "@acme/search.ts",
      "@acme/search.types.ts",
      "index.ts",
      "openapi.json",
      ...RUNTIME_FILES,
    ]);
    const second = await flowgen(dir, "generate");
    expect(second.stdout).toContain(`0 added, 0 changed, 0 removed, ${TWO_FLOW_FILES} unchanged`);
    const check = await flowgen(dir, "generate", "--check");
    expect(check).toMatchObject({
      code: 0,
      stdout: `flowgen: generated is up to date (${TWO_FLOW_FILES} files, 2 flows).\n`,
    });
  });

  it("--check exits 1 on stale output, lists the files and shows a short diff, and writes nothing", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/search.json": search,
    });
    await flowgen(dir, "generate");
    const before = await tree(path.join(dir, "generated"));
    const changed = structuredClone(qa);
    (changed.output.properties as Record<string, unknown>).confidence = { type: "number" };
    await writeFile(path.join(dir, "specs/@acme/qa.json"), JSON.stringify(changed));
    await rm(path.join(dir, "specs/@acme/search.json"));
    await writeFile(path.join(dir, "specs/@acme/new.json"), JSON.stringify(qa));
    const check = await flowgen(dir, "generate", "--check");
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("generated is stale");
    expect(check.stderr).toContain("missing  generated/@acme/new.ts");
    expect(check.stderr).toContain("changed  generated/@acme/qa.types.ts");
    expect(check.stderr).toContain("extra    generated/@acme/search.ts");
    expect(check.stderr).toMatch(/^\+\s+confidence\?: number;$/m);
    expect(await tree(path.join(dir, "generated"))).toEqual(before);
  });

  it("writes the same bytes from a warm cache as without one, picks up changed specs, and survives a broken cache file", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/search.json": search,
    });
    await flowgen(dir, "generate", "--out", "cold", "--no-cache");
    await flowgen(dir, "generate", "--out", "warm");
    const warm = await flowgen(dir, "generate", "--out", "warm");
    expect(warm.stdout).toContain(`${TWO_FLOW_FILES} unchanged`);
    expect(await tree(path.join(dir, "warm"))).toEqual(await tree(path.join(dir, "cold")));

    const changed = structuredClone(qa);
    (changed.output.properties as Record<string, unknown>).confidence = { type: "number" };
    await writeFile(path.join(dir, "specs/@acme/qa.json"), JSON.stringify(changed));
    const rerun = await flowgen(dir, "generate", "--out", "warm");
    expect(rerun.stdout).toContain(
      `0 added, 3 changed, 0 removed, ${TWO_FLOW_FILES - 3} unchanged`,
    );
    expect(await readFile(path.join(dir, "warm/@acme/qa.types.ts"), "utf8")).toContain(
      "confidence?: number;",
    );

    // A broken cache gives nothing: the run renders every file again, to the bytes already there.
    const before = await tree(path.join(dir, "warm"));
    await writeFile(path.join(dir, "node_modules/.cache/flowgen/render-cache.json"), "{ not json");
    const broken = await flowgen(dir, "generate", "--out", "warm");
    expect(broken.code).toBe(0);
    expect(broken.stdout).toContain(`0 added, 0 changed, 0 removed, ${TWO_FLOW_FILES} unchanged`);
    expect(await tree(path.join(dir, "warm"))).toEqual(before);
  });

  it("formats with the project's prettier config", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      ".prettierrc.json": { singleQuote: true, semi: false, tabWidth: 4 },
    });
    expect((await flowgen(dir, "generate")).code).toBe(0);
    const module = await readFile(path.join(dir, "generated/@acme/qa.ts"), "utf8");
    expect(module).toContain("from '../runtime/index.js'");
    expect(module).toMatch(
      /^ {4}return runtime\.createFlowClient<QaInput, QaOutput, paths>\(qaFlow, options\)$/m,
    );
    const document = await readFile(path.join(dir, "generated/openapi.json"), "utf8");
    expect(document).toMatch(/^ {4}"openapi": "3\.1\.1",$/m);
    await expectPrettierClean(dir);
  });

  it("leaves JSON to prettier itself under options that change its layout", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      ".prettierrc.json": { objectWrap: "collapse", printWidth: 100 },
    });
    expect((await flowgen(dir, "generate")).code).toBe(0);
    const document = await readFile(path.join(dir, "generated/openapi.json"), "utf8");
    expect(document).toContain('"security": [{ "bearerAuth": [] }]');
    await expectPrettierClean(dir);
  });

  it("with --validators, writes a validators module per flow, and reports every schema it cannot compile", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const run = await flowgen(dir, "generate", "--validators");
    expect(run.code).toBe(0);
    const files = Object.keys(await tree(path.join(dir, "generated")));
    expect(files).toEqual(expect.arrayContaining(["validation.ts", "@acme/qa.validators.ts"]));

    const money = (format: string) => ({
      input: { type: "object", properties: { price: { type: "string", format } } },
      output: { type: "object" },
    });
    await writeFile(path.join(dir, "specs/@acme/a.json"), JSON.stringify(money("money")));
    await writeFile(path.join(dir, "specs/@acme/b.json"), JSON.stringify(money("currency")));
    const before = await tree(path.join(dir, "generated"));
    const bad = await flowgen(dir, "generate", "--validators");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatchInlineSnapshot(`
      "specs/@acme/a.json #/input: the input schema cannot be compiled into a validator: Unrecognized format used: "money" at #/properties/price; change the schema, or generate without --validators [validator-unsupported] flowgen-cli/docs/errors.md#validator-unsupported
      specs/@acme/b.json #/input: the input schema cannot be compiled into a validator: Unrecognized format used: "currency" at #/properties/price; change the schema, or generate without --validators [validator-unsupported] flowgen-cli/docs/errors.md#validator-unsupported
      flowgen: 2 problems in specs; nothing was written.
      "
    `);
    expect(await tree(path.join(dir, "generated"))).toEqual(before);
    expect((await flowgen(dir, "generate")).code).toBe(0);
  });

  it("deletes the files of removed flows", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/search.json": search,
    });
    await flowgen(dir, "generate");
    await rm(path.join(dir, "specs/@acme/search.json"));
    const run = await flowgen(dir, "generate");
    expect(run.stdout).toMatch(/2 removed/);
    const files = Object.keys(await tree(path.join(dir, "generated")));
    expect(files.filter((f) => f.includes("search"))).toEqual([]);
    expect(await tree(path.join(dir, "generated"))).not.toHaveProperty(
      "index.ts",
      expect.stringContaining("search"),
    );
  });

  it("exits 2 on invalid specs, reports every problem, and leaves the previous output exactly as it was", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": qa });
    await flowgen(dir, "generate");
    const before = await tree(path.join(dir, "generated"));
    await writeFile(
      path.join(dir, "specs/@acme/qa.json"),
      JSON.stringify({ ...qa, ouput: {} }, null, 2),
    );
    await writeFile(path.join(dir, "specs/@acme/bad.json"), '{ "input": ');
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatchInlineSnapshot(`
      "specs/@acme/bad.json:1:12: invalid JSON: expected a value; fix the syntax (a JSON linter or editor shows it too) [syntax-error] flowgen-cli/docs/errors.md#syntax-error
      specs/@acme/qa.json:24:3 #/ouput: unknown key "ouput" (did you mean "output"?); allowed keys: $schema, id, summary, description, deprecated, input, output, examples [unknown-key] flowgen-cli/docs/errors.md#unknown-key
      flowgen: 2 problems in specs; nothing was written.
      "
    `);
    expect(await tree(path.join(dir, "generated"))).toEqual(before);
    // No staging or backup folder is left behind (node_modules holds the render cache).
    expect((await readdir(dir)).sort()).toEqual(["generated", "node_modules", "specs"]);
  });

  it("refuses to replace a folder it did not write", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "src/keep.ts": "export const keep = 1;\n",
    });
    const run = await flowgen(dir, "generate", "--out", "src");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("src: not a flowgen output folder");
    expect(await readFile(path.join(dir, "src/keep.ts"), "utf8")).toBe("export const keep = 1;\n");
  });

  it("takes --specs, --out and --base-url", async () => {
    const dir = await tempProject({ "flows/@acme/qa.json": qa });
    const run = await flowgen(
      dir,
      "generate",
      "--specs",
      "flows",
      "--out",
      "client",
      "--base-url",
      "https://flows.example.com",
    );
    expect(run.code).toBe(0);
    const module = await readFile(path.join(dir, "client/@acme/qa.ts"), "utf8");
    expect(module).toContain('{ baseUrl: "https://flows.example.com" }');
    const document = JSON.parse(
      await readFile(path.join(dir, "client/openapi.json"), "utf8"),
    ) as OpenAPIV3_1.Document;
    expect(document.servers?.[0]?.url).toBe("https://flows.example.com");
  });

  it("prints help and refuses unknown flags and commands before anything runs, with the nearest known one", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    for (const flag of ["--help", "-h"]) {
      const help = await flowgen(dir, "generate", flag);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("--check");
      expect(help.stdout).toContain("Exit codes: 0 success");
    }
    expect(await flowgen(dir, "generate", "--chek")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "flowgen: Unknown argument: chek\n--chek: did you mean --check? [invalid-option] flowgen-cli/docs/errors.md#invalid-option\nRun flowgen --help for usage.\n",
    });
    const twoUnknown = await flowgen(dir, "generate", "--check", "--base-urll", "x", "--outt", "y");
    expect(twoUnknown.code).toBe(2);
    expect(twoUnknown.stderr).toContain("--base-urll: did you mean --base-url?");
    expect(twoUnknown.stderr).toContain("--outt: did you mean --out?");
    const command = await flowgen(dir, "generat");
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('"generat" is not a command; did you mean generate?');
    // A command's beginning names it, even where another is closer by edit distance.
    expect((await flowgen(dir, "gene")).stderr).toContain("did you mean generate?");
    expect((await flowgen(dir, "xyz")).stderr).toContain(
      '"xyz" is not a command. The commands are: generate, serve, diff, verify, init, new.',
    );
    expect((await flowgen(dir, "serve", "--prot", "0")).stderr).toContain(
      "--prot: did you mean --port?",
    );
    expect((await flowgen(dir)).code).toBe(2);
    // A positional left out: one line that says what to give, not yargs' two.
    expect(await flowgen(dir, "new")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "flowgen: new needs <flow> (the flow's id: @org/flow-name): flowgen new <flow> [invalid-option] flowgen-cli/docs/errors.md#invalid-option\nRun flowgen --help for usage.\n",
    });
    // Nothing ran: no output folder, no render cache.
    expect((await readdir(dir)).sort()).toEqual(["specs"]);
  });

  it("checks --base-url before generating", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const run = await flowgen(dir, "generate", "--base-url", "api.example.com");
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        '--base-url: "api.example.com" is not an http(s) URL; give one such as "https://api.example.com" [invalid-option] flowgen-cli/docs/errors.md#invalid-option\nflowgen: 1 problem; nothing was written.\n',
    });
    expect((await readdir(dir)).sort()).toEqual(["specs"]);
  });

  it("as a process: prints flowgen's own version (-v too) wherever it runs, and exits 2 on an unknown flag without writing", async () => {
    const dir = await tempProject({
      "package.json": { name: "host-project", version: "9.9.9" },
      "specs/@acme/qa.json": qa,
    });
    const own = (
      JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    const [version, unknown] = await Promise.all([
      spawnFlowgen(dir, "--version"),
      spawnFlowgen(dir, "generate", "--chek"),
    ]);
    expect(version).toEqual({ code: 0, stdout: `${own}\n`, stderr: "" });
    // The short flag is the same option: in-process is enough.
    expect((await flowgen(dir, "-v")).stdout).toBe(`${own}\n`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("did you mean --check?");
    expect((await readdir(dir)).sort()).toEqual(["package.json", "specs"]);
  });

  it("exits 2 with a clear message when the specs folder is missing", async () => {
    const dir = await tempProject({});
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("specs: specs folder not found");
  });
});
