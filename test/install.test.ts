import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";
import { outputFileCount } from "./helpers/output-files.js";

const run = promisify(execFile);
const npm = (cwd: string, ...args: string[]) =>
  run("npm", args, {
    cwd,
    env: { ...process.env, npm_config_loglevel: "error", npm_config_update_notifier: "false" },
    timeout: 120_000,
  });

describe("the packed package, installed as a user installs it", () => {
  it(
    "installs engine-strict on this Node, then --version, init and generate work in the new project",
    { timeout: 180_000 },
    async () => {
      const dir = await tempProject({
        "package.json": { name: "new-project", version: "3.2.1", private: true, type: "module" },
      });
      // `npm test` built dist/ already; --ignore-scripts keeps pack from building it again.
      const packed = await npm(
        REPO_ROOT,
        "pack",
        "--ignore-scripts",
        "--json",
        "--pack-destination",
        dir,
      );
      const [tarball] = JSON.parse(packed.stdout) as {
        filename: string;
        files: { path: string }[];
      }[];
      if (tarball === undefined) throw new Error(packed.stdout);
      const files = tarball.files.map((file) => file.path);
      expect(files).toEqual(
        expect.arrayContaining([
          "LICENSE",
          "README.md",
          "docs/errors.md",
          "schema/flow-spec.schema.json",
          "bin/flowgen.js",
          "dist/index.js",
          "dist/index.d.ts",
          "templates/runtime/index.ts",
          "templates/runtime/client.ts",
        ]),
      );
      expect(
        files.filter(
          (file) =>
            file.startsWith("src/") || file.startsWith("test/") || file.endsWith(".test.ts"),
        ),
      ).toEqual([]);

      // The registry cache first, so the test needs the network only for what the cache lacks.
      await npm(
        dir,
        "install",
        "--engine-strict",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--save-dev",
        path.join(dir, tarball.filename),
      );
      const bin = path.join(dir, "node_modules/.bin/flowgen");
      const flowgen = (...args: string[]) => run(bin, args, { cwd: dir });
      const own = (
        JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
      expect((await flowgen("--version")).stdout).toBe(`${own}\n`);
      expect((await flowgen("init")).stdout).toContain("flowgen init: created flowgen.config.ts");
      const generated = await flowgen("generate");
      expect(generated.stdout).toMatch(
        new RegExp(`^flowgen: 1 flow → generated: ${outputFileCount(1)} added`),
      );
      expect((await readdir(path.join(dir, "generated/@example"))).sort()).toEqual([
        "hello.ts",
        "hello.types.ts",
      ]);
      expect((await flowgen("generate", "--check")).stdout).toMatch(/is up to date/);
      const spec = JSON.parse(
        await readFile(path.join(dir, "specs/@example/hello.json"), "utf8"),
      ) as { $schema: string };
      expect(existsSync(path.resolve(dir, "specs/@example", spec.$schema))).toBe(true);

      // The package's types, as a user's strict NodeNext project sees them: the config init wrote, and the API.
      await writeFile(
        path.join(dir, "use-api.ts"),
        [
          'import { check, defineConfig, generate, serve, type GenerateResult } from "flowgen-cli";',
          'import { defineFlow } from "flowgen-cli/serve";',
          'const result: GenerateResult = await generate({ cwd: ".", validators: true });',
          "if (result.ok) console.log(result.flowCount, result.diff.added.length);",
          "const checked = await check({ config: false });",
          "if (checked.ok) console.log(checked.upToDate satisfies boolean);",
          "const server = await serve({ port: 0, watch: false });",
          "if (server.ok) await server.close();",
          "// @ts-expect-error: not a config key",
          'defineConfig({ output: "x" });',
          "export default defineFlow<{ q: string }, { a: string }>(async ({ q }) => ({ a: q }));",
          "",
        ].join("\n"),
      );
      const tsconfig = {
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        include: ["*.ts"],
      };
      await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
      const tsc = await run(
        process.execPath,
        [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "."],
        { cwd: dir },
      ).catch((error: { stdout: string }) => error);
      expect(tsc.stdout).toBe("");
    },
  );
});
