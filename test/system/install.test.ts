import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, readPages } from "../helpers/markdown.js";
import { outputFileCount } from "../helpers/output-files.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";
import { compileProject } from "../helpers/typecheck.js";

const run = promisify(execFile);
/** npm as the tests run it: the registry cache first, so the network is needed only for what it lacks. */
const NPM_ENV = {
  ...process.env,
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};
const npm = (cwd: string, ...args: string[]) =>
  run("npm", args, {
    cwd,
    env: { ...NPM_ENV, npm_config_loglevel: "error" },
    timeout: 120_000,
  });

interface Packed {
  readonly dir: string;
  readonly tarball: string;
  readonly files: readonly string[];
}

let packed: Packed;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "flowgen-pack-"));
  // `npm test` built dist/ already; --ignore-scripts keeps pack from building it again.
  const out = await npm(REPO_ROOT, "pack", "--ignore-scripts", "--json", "--pack-destination", dir);
  const [tarball] = JSON.parse(out.stdout) as { filename: string; files: { path: string }[] }[];
  if (tarball === undefined) throw new Error(out.stdout);
  packed = {
    dir,
    tarball: path.join(dir, tarball.filename),
    files: tarball.files.map((file) => file.path),
  };
}, 120_000);
afterAll(() => rm(packed.dir, { recursive: true, force: true }));

describe("the packed package", () => {
  it("holds what users need: no sources, no tests, no source maps, no install scripts", async () => {
    expect(packed.files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "docs/errors.md",
        "docs/client.md",
        "schema/flow-spec.schema.json",
        "bin/flowgen.js",
        "dist/index.js",
        "dist/index.d.ts",
        "templates/runtime/index.ts",
        "templates/runtime/client.ts",
      ]),
    );
    expect(
      packed.files.filter(
        (file) =>
          file.startsWith("src/") ||
          file.startsWith("test/") ||
          file.startsWith("scripts/") ||
          file.endsWith(".test.ts") ||
          file.endsWith(".map"),
      ),
    ).toEqual([]);
    const { stdout } = await run("tar", ["-xzOf", packed.tarball, "package/package.json"]);
    const manifest = JSON.parse(stdout) as { scripts?: Record<string, string> };
    const lifecycle = ["preinstall", "install", "postinstall", "prepare"];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual(
      [],
    );
  });

  it("passes publint (strict) and arethetypeswrong (ES modules only), offline on the tarball", async () => {
    const bytes = await readFile(packed.tarball);
    const linted = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      strict: true,
      level: "suggestion",
    });
    expect(linted.messages.map((message) => formatMessage(message, linted.pkg))).toEqual([]);
    // ES modules only, on purpose: engines says Node 20.19+, whose require() loads ES modules, so
    // node10 resolution and require from CommonJS type checks are not the package's targets.
    const attw = path.join(REPO_ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js");
    const args = ["--profile", "esm-only", "--no-definitely-typed", "--format", "ascii"];
    const checked = await run(process.execPath, [attw, packed.tarball, ...args, "--no-color"], {
      env: { ...process.env, NO_COLOR: "1" },
    }).catch((error: { stdout: string; code: number }) => error);
    expect(checked.stdout).toContain('"flowgen-cli/serve"');
    expect("code" in checked ? checked.stdout : "passed").toBe("passed");
  });

  it(
    "installs as the README's quick start says, reaches a first call, and works as a dev dependency",
    { timeout: 180_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "flowgen-quick-start-"));
      try {
        const quickStart = await runQuickStart(dir);
        expect(quickStart.stdout).toMatch(
          new RegExp(`^flowgen: 1 flow → generated: ${outputFileCount(1)} added`, "m"),
        );
        expect((await readdir(path.join(dir, "generated/@example"))).sort()).toEqual([
          "hello.ts",
          "hello.types.ts",
        ]);
        expect(quickStart.stdout).toContain("{ result: 'Hello, world' }");
        // npm lists packages that run scripts on install; flowgen runs none.
        expect(quickStart.stderr).not.toMatch(/flowgen-cli@\S+ \(/);
        await expectDevDependencyWorks(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

/**
 * Runs the README's quick start in `dir` with bash, as written, but for three things: flowgen
 * comes from the packed tarball, serve listens on a free port, and the script waits for serve's
 * port before calling it. Serve, started in the background, is stopped by its process group.
 */
async function runQuickStart(dir: string): Promise<{ stdout: string; stderr: string }> {
  const readme = readPages().find((page) => page.file === "README.md");
  const start = readme?.text.indexOf("## Quick start") ?? -1;
  const block = codeBlocks({ file: "README.md", text: readme?.text.slice(start) ?? "" })[0];
  expect(block?.lang).toBe("sh");
  const port = await freePort();
  const wait = `for i in $(seq 1 600); do (echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`;
  const script = (block?.code ?? "")
    .replace("npm install -D flowgen-cli", `npm install -D ${packed.tarball}`)
    .replaceAll("127.0.0.1:8787", `127.0.0.1:${port}`)
    .replace(/^(.*npx flowgen serve)( &.*)$/m, `$1 --port ${port}$2\n${wait}`);
  expect(script).toContain(packed.tarball);
  const child = spawn("bash", ["-e", "-c", script], {
    cwd: dir,
    detached: true,
    // engine-strict: installing must work on this Node as engines says, with nothing forced.
    env: { ...NPM_ENV, npm_config_loglevel: "warn", npm_config_engine_strict: "true" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // "exit", not "close": serve, in the background, keeps the pipes open until it is stopped.
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
  expect(code, `${stdout}\n${stderr}`).toBe(0);
  return { stdout, stderr };
}

/** What the quick start's project does next: --version, generate --check, and the package's types. */
async function expectDevDependencyWorks(dir: string): Promise<void> {
  const flowgen = (...args: string[]) =>
    run(path.join(dir, "node_modules/.bin/flowgen"), args, { cwd: dir });
  const own = (
    JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  expect((await flowgen("--version")).stdout).toBe(`${own}\n`);
  expect((await flowgen("generate", "--check")).stdout).toMatch(/is up to date/);
  const spec = JSON.parse(await readFile(path.join(dir, "specs/@example/hello.json"), "utf8")) as {
    $schema: string;
  };
  expect(existsSync(path.resolve(dir, "specs/@example", spec.$schema))).toBe(true);

  // The package's types, as a user's strict NodeNext project sees them: the config init wrote, and the API.
  await writeFile(
    path.join(dir, "use-api.mts"),
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
    include: ["*.ts", "*.mts"],
  };
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  // tsc -p, in this process: flowgen-cli's types come from the project's node_modules.
  expect(compileProject(path.join(dir, "tsconfig.json"))).toBe("");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
