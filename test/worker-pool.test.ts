import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { renderProject } from "../src/generate.js";
import { syntheticSpecs } from "./helpers/synthetic-specs.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const BIN = path.join(REPO_ROOT, "bin/flowgen.js");

// The built CLI renders a project this size on worker threads (flowgen's TypeScript sources,
// which the other tests run, always render on one thread): both must write the same bytes.
it("writes on worker threads exactly what rendering on one thread gives", async () => {
  const dir = await tempProject(syntheticSpecs(30));
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, "generate", "--no-cache", "--verbose"], { cwd: dir });
  expect(stdout).toMatch(/30 flows → generated: 73 added/);
  const result = await renderProject({ specs: "specs", out: "generated", cwd: dir });
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3)));
  const written = await Promise.all(result.files.map((file) => readFile(path.join(dir, "generated", file.path), "utf8")));
  expect(written).toEqual(result.files.map((file) => file.content));
});
