import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serve } from "../../src/index.js";
import { outputFileCount } from "../helpers/output-files.js";
import { cachedProject } from "../helpers/render-cache.js";
import { runCli as flowgen } from "../helpers/run-cli.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
};

// flowgen-cli as a project installs it: its built package, imported by the project's
// flowgen.config.ts through tsx.
describe("flowgen.config.ts", () => {
  it("loads flowgen.config.ts typed through defineConfig from the installed package", async () => {
    const dir = await cachedProject({
      "package.json": { name: "app", type: "module", dependencies: { "openapi-fetch": "^0.17.0" } },
      "flowgen.config.ts": [
        'import { defineConfig, type FlowgenConfig } from "flowgen-cli";',
        'const out: FlowgenConfig["out"] = "typed";',
        "export default defineConfig({ out, serve: { port: 0, watch: false } });",
        "",
      ].join("\n"),
      "specs/@acme/qa.json": qa,
    });
    await mkdir(path.join(dir, "node_modules"), { recursive: true });
    await symlink(REPO_ROOT, path.join(dir, "node_modules/flowgen-cli"), "dir");
    const run = await flowgen(dir, "generate");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(new RegExp(`→ typed: ${outputFileCount(1)} added`));
    // serve reads the same file: port 0 and no watching come from it.
    const server = await serve({ cwd: dir });
    if (!server.ok) throw new Error(JSON.stringify(server.issues));
    expect(server.flows).toEqual(["@acme/qa"]);
    expect(server.port).toBeGreaterThan(0);
    await server.close();
  });
});
