import { existsSync } from "node:fs";
import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { check, generate, loadConfig } from "../src/index.js";
import { cachedProject } from "./helpers/render-cache.js";
import { runCli } from "./helpers/run-cli.js";
import { tempProject } from "./helpers/temp-dir.js";
import { outputFileCount } from "./helpers/output-files.js";

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
};

const flowgen = runCli;

describe("flowgen.config", () => {
  it("is read by generate and --check alike, so a config with validators is not called stale", async () => {
    const dir = await tempProject({
      "flows/@acme/qa.json": qa,
      "flowgen.config.json": {
        specs: "flows",
        out: "client",
        validators: true,
        baseUrl: "https://flows.example.com",
      },
    });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^flowgen: 1 flow → client: ${outputFileCount(1, { validators: true })} added`),
    );
    expect(await readdir(path.join(dir, "client/@acme"))).toContain("qa.validators.ts");
    expect(await readFile(path.join(dir, "client/@acme/qa.ts"), "utf8")).toContain(
      '{ baseUrl: "https://flows.example.com" }',
    );
    expect(await flowgen(dir, "generate", "--check")).toEqual({
      code: 0,
      stdout: `flowgen: client is up to date (${outputFileCount(1, { validators: true })} files, 1 flow).\n`,
      stderr: "",
    });
    // A flag wins over the file: without validators the output differs.
    expect((await flowgen(dir, "generate", "--check", "--no-validators")).code).toBe(1);
  });

  it("failOnBreaking in the file gates generate and diff alike (exit 4), and a flag turns it off", async () => {
    const schema = (required: string[]) => ({
      type: "object",
      required,
      properties: { q: { type: "string" }, lang: { type: "string" } },
    });
    const dir = await cachedProject({
      "specs/@acme/qa.json": { input: schema(["q"]), output: { type: "object" } },
      "flowgen.config.json": { failOnBreaking: true },
    });
    expect((await flowgen(dir, "generate")).code).toBe(0);
    await writeFile(
      path.join(dir, "specs/@acme/qa.json"),
      JSON.stringify({ input: schema(["q", "lang"]), output: { type: "object" } }),
    );
    const refused = await flowgen(dir, "generate");
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("nothing was written (--fail-on-breaking)");
    expect((await flowgen(dir, "diff", "--base", "generated")).code).toBe(4);
    expect((await flowgen(dir, "diff", "--base", "generated", "--no-fail-on-breaking")).code).toBe(
      0,
    );
    expect((await flowgen(dir, "generate", "--no-fail-on-breaking")).code).toBe(0);
  });

  it("flags override the file; the programmatic API takes the same settings", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.json": { out: "client" },
    });
    expect((await flowgen(dir, "generate", "--out", "elsewhere")).code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      "elsewhere",
      "flowgen.config.json",
      "node_modules",
      "specs",
    ]);
    const result = await generate({ cwd: dir, validators: true, cache: false });
    expect(result.ok && result.settings).toMatchObject({
      out: "client",
      validators: true,
      cache: false,
    });
    expect(result.ok && result.configFile).toBe(path.join(dir, "flowgen.config.json"));
    const checked = await check({ cwd: dir, validators: true });
    expect(checked.ok && checked.upToDate).toBe(true);
    const ignored = await check({ cwd: dir, config: false });
    expect(ignored.ok && ignored.settings.out).toBe("generated");
  });

  it("is found from a subfolder, up to the project root, with its paths relative to its own folder", async () => {
    const dir = await tempProject({
      "package.json": { name: "app", type: "module", dependencies: { "openapi-fetch": "^0.17.0" } },
      "flowgen.config.mjs": 'export default { specs: "api/specs", out: "src/generated" };\n',
      "api/specs/@acme/qa.json": qa,
      "tools/.keep": "",
    });
    const run = await flowgen(path.join(dir, "tools"), "generate", "--no-cache");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      new RegExp(`^flowgen: 1 flow → \\.\\./src/generated: ${outputFileCount(1)} added`),
    );
    expect(await readdir(path.join(dir, "src/generated"))).toContain("runtime");
  });

  it("reports every problem in the file at once, with the nearest known key, and runs nothing", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.json": {
        specz: "x",
        validators: "yes",
        baseUrl: "api.example.com",
        serve: { prot: 1, rate: 0 },
      },
    });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatchInlineSnapshot(`
      "flowgen.config.json #/baseUrl: "api.example.com" is not an http(s) URL; give one such as "https://api.example.com" [invalid-config] flowgen-cli/docs/errors.md#invalid-config
      flowgen.config.json #/serve/prot: unknown key "prot" (did you mean "port"?); allowed keys: port, host, handlers, watch, keysFile, rate, burst, bodyLimit, maxDepth, headersTimeout, requestTimeout, seed, cors, docs [invalid-config] flowgen-cli/docs/errors.md#invalid-config
      flowgen.config.json #/serve/rate: must be a number above 0, not 0 [invalid-config] flowgen-cli/docs/errors.md#invalid-config
      flowgen.config.json #/specz: unknown key "specz" (did you mean "specs"?); allowed keys: specs, out, baseUrl, validators, cache, cacheDir, failOnBreaking, rules, serve [invalid-config] flowgen-cli/docs/errors.md#invalid-config
      flowgen.config.json #/validators: must be true or false, not "yes" [invalid-config] flowgen-cli/docs/errors.md#invalid-config
      flowgen: 5 problems; nothing was written.
      "
    `);
    expect((await readdir(dir)).sort()).toEqual(["flowgen.config.json", "specs"]);
    const served = await flowgen(dir, "serve", "--port", "0");
    expect(served.code).toBe(2);
    expect(served.stderr).toContain('#/serve/prot: unknown key "prot" (did you mean "port"?)');
  });

  it("says why a config cannot be loaded, and where --config points to nothing", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.mjs": "export default {\n",
      "sub/.keep": "",
    });
    const broken = await flowgen(dir, "generate");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^flowgen\.config\.mjs: cannot be loaded: .+ \[invalid-config\] flowgen-cli\/docs\/errors\.md#invalid-config$/m,
    );
    await writeFile(path.join(dir, "flowgen.config.mjs"), "export default {};\n");
    await writeFile(path.join(dir, "sub/flowgen.config.json"), '{ "out": ');
    expect((await flowgen(path.join(dir, "sub"), "generate")).stderr).toMatch(
      /^flowgen\.config\.json: cannot be loaded: .*JSON.* \[invalid-config\] flowgen-cli\/docs\/errors\.md#invalid-config$/m,
    );
    await writeFile(path.join(dir, "other.json"), JSON.stringify({ out: "other" }));
    expect((await flowgen(dir, "generate", "--config", "other.json")).stdout).toMatch(/→ other:/);
    expect(await flowgen(dir, "generate", "--config", "missing.json")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("missing.json: config file not found"),
    });
  });

  it("run from a folder below the config, takes the default folders from the config's folder", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "package.json": { name: "app" },
      "flowgen.config.json": { validators: false },
      "src/main.ts": "export {};\n",
    });
    const run = await flowgen(path.join(dir, "src"), "generate");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^flowgen: 1 flow → \.\.\/generated: /);
    expect(existsSync(path.join(dir, "generated/index.ts"))).toBe(true);
    expect(existsSync(path.join(dir, "node_modules/.cache/flowgen"))).toBe(true);
    expect(existsSync(path.join(dir, "src/generated"))).toBe(false);
    expect(existsSync(path.join(dir, "src/node_modules"))).toBe(false);
  });

  it("in a monorepo, a package without a config takes the root's: generate and --check agree from either folder", async () => {
    const dir = await cachedProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      "package.json": { private: true, workspaces: ["packages/*"] },
      "flowgen.config.json": {
        specs: "packages/web/specs",
        out: "packages/web/generated",
        baseUrl: "https://api.example.com",
      },
      "packages/web/package.json": { name: "web", dependencies: { "openapi-fetch": "^0.17.0" } },
      "packages/web/specs/@acme/qa.json": qa,
    });
    expect((await flowgen(dir, "generate")).code).toBe(0);
    const web = path.join(dir, "packages/web");
    expect(await flowgen(web, "generate", "--check")).toMatchObject({ code: 0, stderr: "" });
    expect(await readFile(path.join(web, "generated/@acme/qa.ts"), "utf8")).toContain(
      "https://api.example.com",
    );
  });

  it("takes a workspace root's config only for a package its patterns name (npm's or pnpm's)", async () => {
    const dir = await cachedProject({
      "package.json": { private: true, workspaces: ["tools/*", "!tools/skip"] },
      "flowgen.config.json": { out: "elsewhere" },
      "tools/cli/package.json": { name: "cli" },
      "tools/skip/package.json": { name: "skip" },
      "code/app/package.json": { name: "app" },
      "pnpm/pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n",
      "pnpm/flowgen.config.json": { out: "pnpm-out" },
      "pnpm/apps/web/package.json": { name: "web" },
    });
    const fileFrom = async (folder: string) => {
      const loaded = await loadConfig(path.join(dir, folder));
      return loaded.ok ? loaded.file : undefined;
    };
    expect(await fileFrom("tools/cli")).toBe(path.join(dir, "flowgen.config.json"));
    expect(await fileFrom("tools/skip")).toBeUndefined();
    expect(await fileFrom("code/app")).toBeUndefined();
    expect(await fileFrom("pnpm/apps/web")).toBe(path.join(dir, "pnpm/flowgen.config.json"));
  });

  it("reads past a workspace manifest it cannot use: empty or endless patterns, a link that loops", async () => {
    const dir = await cachedProject({
      "package.json": { private: true, workspaces: ["./", "", "!", "a".repeat(70_000)] },
      "flowgen.config.json": { out: "elsewhere" },
      "packages/app/package.json": { name: "app" },
      "loop/inner/package.json": { name: "inner" },
    });
    expect(await loadConfig(path.join(dir, "packages/app"))).toMatchObject({
      ok: true,
      file: undefined,
    });
    await symlink("package.json", path.join(dir, "loop/package.json"));
    expect(await loadConfig(path.join(dir, "loop/inner"))).toMatchObject({
      ok: true,
      file: undefined,
    });
  });

  it("takes no config from a repository above the project that is no workspace of it", async () => {
    const home = await cachedProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      "flowgen.config.json": { out: "elsewhere", baseUrl: "https://api.example.com" },
      "code/app/package.json": { name: "app" },
    });
    const loaded = await loadConfig(path.join(home, "code/app"));
    expect(loaded).toMatchObject({ ok: true, file: undefined });
  });

  it("names the option that pointed outside the project: --base for diff's base", async () => {
    const outside = await tempProject({ "specs/@acme/qa.json": qa });
    const dir = await cachedProject({ "specs/@acme/qa.json": qa, "package.json": { name: "app" } });
    const run = await flowgen(dir, "diff", "--base", path.join(outside, "specs"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("point --base at a folder in it");
    expect(run.stderr).not.toContain("--specs");
  });

  it("refuses two configs in one folder, and says what a JSON or package.json config must hold", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.mjs": "export default { out: 'a' };\n",
      "flowgen.config.json": { out: "b" },
      "list.json": [],
      "package.json": { name: "app", private: true },
    });
    const both = await flowgen(dir, "generate");
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toContain(
      "flowgen.config.mjs: one folder holds several flowgen configs (flowgen.config.mjs, flowgen.config.json); keep one of them, or pass the one to use with --config [invalid-config]",
    );
    expect((await flowgen(dir, "generate", "--config", "flowgen.config.json")).stdout).toMatch(
      /→ b:/,
    );
    expect((await flowgen(dir, "generate", "--config", "list.json")).stderr).toContain(
      'list.json: must hold a JSON object of settings, such as { "specs": "specs", "out": "generated" }',
    );
    expect((await flowgen(dir, "generate", "--config", "package.json")).stderr).toContain(
      'package.json: has no "flowgen" object; put the settings under "flowgen", or in flowgen.config.json',
    );
  });

  it("refuses an empty config file, as it refuses [] and invalid JSON, saying what to write", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.json": "",
      "blank.ts": " \n",
    });
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe(
      [
        'flowgen.config.json: is empty; write a JSON object of settings, such as { "specs": "specs", "out": "generated" }, or remove the file to use the defaults [invalid-config] flowgen-cli/docs/errors.md#invalid-config',
        "flowgen: 1 problem; nothing was written.",
        "",
      ].join("\n"),
    );
    expect(await readdir(dir)).not.toContain("generated");
    const blank = await loadConfig(dir, "blank.ts");
    expect(blank.ok ? [] : blank.issues.map((issue) => issue.message)).toEqual([
      'is empty; export the settings, such as export default defineConfig({ specs: "specs", out: "generated" }), or leave out --config to use the defaults',
    ]);
  });

  it("knows only its own keys: names every object inherits are unknown keys too", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      "flowgen.config.json":
        '{ "toString": 1, "constructor": "x", "serve": { "__proto__": { "keysFile": "k.json" }, "valueOf": 1, "hasOwnProperty": 2 } }',
    });
    const loaded = await loadConfig(dir);
    expect(loaded.ok).toBe(false);
    const found = loaded.ok ? [] : loaded.issues.map((issue) => `${issue.pointer} ${issue.code}`);
    expect(found.sort()).toEqual([
      "/constructor invalid-config",
      "/serve/__proto__ invalid-config",
      "/serve/hasOwnProperty invalid-config",
      "/serve/valueOf invalid-config",
      "/toString invalid-config",
    ]);
  });
});
