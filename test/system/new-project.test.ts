import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import { compileProject } from "../helpers/typecheck.js";

const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

/** package.json as `npm init -y` (npm 11) writes it: `"type": "commonjs"` unless changed. */
function npmInitManifest(name: string, type: "commonjs" | "module"): Record<string, unknown> {
  return {
    name,
    version: "1.0.0",
    description: "",
    main: "index.js",
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: "",
    license: "ISC",
    type,
  };
}

/**
 * A consumer written as TypeScript advises for each setup. In a CommonJS file under
 * `verbatimModuleSyntax`, imports are `import x = require(…)` (TypeScript's error TS1295 says so);
 * in an ES module, `import { … } from`. `tsc --init` sets `types: []`, so there is no `process`
 * type: the base URL comes through `globalThis`.
 */
const CONSUMERS = {
  commonjs: `import hello = require("./generated/@example/hello.js");
import flows = require("./generated/index.js");

const { argv } = (globalThis as unknown as { process: { argv: string[] } }).process;
const input: hello.HelloInput = { text: "Hello" };
hello
  .createHelloClient({ apiKey: "sk_new_0123456789", baseUrl: argv[2] })
  .run(input)
  .then(
    (output: hello.HelloOutput) => console.log(JSON.stringify(output)),
    (error: unknown) => console.log(flows.isFlowError(error) ? error.kind : "not a FlowError"),
  );
`,
  module: `import { createHelloClient, type HelloInput, type HelloOutput } from "./generated/@example/hello.js";
import { isFlowError } from "./generated/index.js";

const { argv } = (globalThis as unknown as { process: { argv: string[] } }).process;
const input: HelloInput = { text: "Hello" };
try {
  const output: HelloOutput = await createHelloClient({ apiKey: "sk_new_0123456789", baseUrl: argv[2] }).run(input);
  console.log(JSON.stringify(output));
} catch (error) {
  console.log(isFlowError(error) ? error.kind : "not a FlowError");
}
`,
} as const;

function run(
  cwd: string,
  command: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** flowgen and openapi-fetch installed as npm would: in the project's node_modules. */
async function installPackages(dir: string): Promise<void> {
  await mkdir(path.join(dir, "node_modules"));
  await symlink(REPO_ROOT, path.join(dir, "node_modules/flowgen-cli"), "dir");
  for (const name of ["openapi-fetch", "typescript"])
    await symlink(
      path.join(REPO_ROOT, "node_modules", name),
      path.join(dir, "node_modules", name),
      "dir",
    );
}

async function withLoopbackServer<T>(work: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result: `${req.url} ${req.headers.authorization}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await work(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("a project made by npm init -y and tsc --init", () => {
  /** The tsconfig.json `tsc --init` writes (in a folder of its own: it depends on nothing there). */
  let tsconfig: string;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "flowgen-tsc-init-"));
    try {
      expect((await run(dir, process.execPath, [TSC, "--init"])).code).toBe(0);
      tsconfig = await readFile(path.join(dir, "tsconfig.json"), "utf8");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(["commonjs", "module"] as const)(
    '"type": "%s": init, generate, tsc and the compiled program calling a loopback server',
    async (type) => {
      const dir = await tempProject({ "package.json": npmInitManifest("newcomer", type) });
      await installPackages(dir);
      // The tsconfig TypeScript 5.9 writes: module nodenext, verbatimModuleSyntax, types [], no outDir.
      await writeFile(path.join(dir, "tsconfig.json"), tsconfig);
      expect(tsconfig).toContain('"verbatimModuleSyntax": true');

      const init = await runCli(dir, "init");
      expect(init.code).toBe(0);
      // A .ts config with import/export would not compile in a CommonJS package: .mts is an ES module anywhere.
      const config = type === "commonjs" ? "flowgen.config.mts" : "flowgen.config.ts";
      expect(init.stdout).toContain(`flowgen init: created ${config}\n`);
      expect(init.stderr).toContain(
        "Add it: npm install openapi-fetch [missing-dependency] flowgen-cli/docs/errors.md#missing-dependency",
      );

      const generated = await runCli(dir, "generate");
      expect(generated.code).toBe(0);
      expect(generated.stderr).toContain(
        "[missing-dependency] flowgen-cli/docs/errors.md#missing-dependency",
      );
      expect(existsSync(path.join(dir, "generated/package.json"))).toBe(type === "commonjs");

      // What `npm install openapi-fetch` adds: then nothing is said.
      const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      manifest.dependencies = { "openapi-fetch": "^0.17.0" };
      await writeFile(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
      expect(await runCli(dir, "generate", "--check")).toMatchObject({ code: 0, stderr: "" });

      await writeFile(path.join(dir, "index.ts"), CONSUMERS[type]);
      // tsc -p as the project runs it (in this process): every file, the config and generated/
      // included, emitted in place.
      expect(compileProject(path.join(dir, "tsconfig.json"))).toBe("");
      const called = await withLoopbackServer((url) =>
        run(dir, process.execPath, [path.join(dir, "index.js"), url]),
      );
      expect(called).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ result: "/v1/@example/hello Bearer sk_new_0123456789" })}\n`,
        stderr: "",
      });
    },
    120_000,
  );
});
