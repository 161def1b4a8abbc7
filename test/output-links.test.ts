import { cp, lstat, mkdir, readdir, readFile, rename, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { runCli } from "./helpers/run-cli.js";
import { copyProject, sharedProject, tempProject, writeFiles } from "./helpers/temp-dir.js";

const flow = { input: { type: "object" }, output: { type: "object" } };

/** Generated once for this file; each test changes a copy of its own. */
const generated = sharedProject(async (dir) => {
  const files: Record<string, unknown> = { "package.json": { name: "consumer", private: true } };
  for (let i = 0; i < 9; i++) files[`specs/@acme/flow-${i}.json`] = flow;
  files["specs/@tiny/one.json"] = flow;
  await writeFiles(dir, files);
  const result = await generate({ cwd: dir, config: false });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
});

/**
 * A project with enough flows that adding a few files is written in place (the write-only-changed
 * path), already generated, with its render cache: nine flows in @acme and one in @tiny.
 */
async function generatedProject(): Promise<string> {
  return copyProject(await generated());
}

/** A folder outside the project holding files that are not flowgen's. */
async function outsideFolder(files: Record<string, unknown>): Promise<string> {
  const dir = await tempProject(files);
  return dir;
}

/** Every entry under `dir` (links not followed) with the content of each file: what must not change. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    out[rel] = entry.isFile()
      ? await readFile(full, "utf8")
      : entry.isSymbolicLink()
        ? "<link>"
        : "<dir>";
  }
  return out;
}

describe("no symlink in the output folder is followed or written through", () => {
  it("a symlinked org folder in generated/: generate replaces the link, the outside folder stays byte-identical", async () => {
    const dir = await generatedProject();
    const outside = await outsideFolder({
      "one.ts": "// a file that is not flowgen's\n",
      "notes.md": "keep me\n",
    });
    const before = await snapshot(outside);
    await cp(path.join(dir, "generated/@tiny"), path.join(dir, "tiny-copy"), { recursive: true });
    await rename(path.join(dir, "generated/@tiny"), path.join(dir, "tiny-away"));
    await symlink(outside, path.join(dir, "generated/@tiny"), "dir");

    const checked = await runCli(dir, "generate", "--check");
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("extra    generated/@tiny");
    expect(checked.stderr).toContain("missing  generated/@tiny/one.ts");

    const result = await runCli(dir, "generate");
    expect(result.code).toBe(0);
    expect(await snapshot(outside)).toEqual(before);
    expect((await lstat(path.join(dir, "generated/@tiny"))).isDirectory()).toBe(true);
    expect(await snapshot(path.join(dir, "generated/@tiny"))).toEqual(
      await snapshot(path.join(dir, "tiny-copy")),
    );
    expect((await runCli(dir, "generate", "--check")).code).toBe(0);
  });

  it("a symlinked file or marker in generated/ is replaced, never written through", async () => {
    const dir = await generatedProject();
    const outside = await outsideFolder({ "victim.txt": "precious\n", "other.ts": "// mine\n" });
    const before = await snapshot(outside);
    // The marker flowgen writes while replacing files in place, and a client module.
    await symlink(path.join(outside, "victim.txt"), path.join(dir, "generated/.flowgen-writing"));
    const client = path.join(dir, "generated/@acme/flow-3.ts");
    const pristine = await readFile(client, "utf8");
    await rename(client, path.join(dir, "flow-3.away"));
    await symlink(path.join(outside, "other.ts"), client);
    await writeFiles(dir, { "specs/@acme/flow-0.json": { ...flow, description: "Edited." } });

    const result = await runCli(dir, "generate");
    expect(result.code).toBe(0);
    expect(await snapshot(outside)).toEqual(before);
    expect((await lstat(client)).isFile()).toBe(true);
    expect(await readFile(client, "utf8")).toBe(pristine);
    expect((await runCli(dir, "generate", "--check")).code).toBe(0);
  });

  it("the output folder itself, or a folder on its way, leading out of the project is refused", async () => {
    const dir = await generatedProject();
    const outside = await outsideFolder({});
    await cp(path.join(dir, "generated"), path.join(outside, "generated"), { recursive: true });
    const before = await snapshot(outside);
    await rename(path.join(dir, "generated"), path.join(dir, "generated-away"));
    await symlink(path.join(outside, "generated"), path.join(dir, "generated"), "dir");
    await writeFiles(dir, { "specs/@acme/flow-0.json": { ...flow, description: "Edited." } });

    const linked = await runCli(dir, "generate");
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain("generated: is a symlink");
    expect(linked.stderr).toContain(
      "[not-an-output-folder] flowgen-cli/docs/errors.md#not-an-output-folder",
    );
    expect(await snapshot(outside)).toEqual(before);

    await mkdir(path.join(dir, "client"));
    await symlink(outside, path.join(dir, "client/src"), "dir");
    const through = await runCli(dir, "generate", "--out", "client/src/generated");
    expect(through.code).toBe(2);
    expect(through.stderr).toContain(
      "[outside-project] flowgen-cli/docs/errors.md#outside-project",
    );
    expect(await snapshot(outside)).toEqual(before);
  });

  it("the contract diff never reads a linked openapi.json, and the render cache never writes through a link", async () => {
    const dir = await generatedProject();
    const outside = await outsideFolder({
      "secret.json": {
        openapi: "3.1.0",
        paths: { "/v1/@leak/secret-value-123": { post: { operationId: "leak" } } },
      },
    });
    await rename(path.join(dir, "generated/openapi.json"), path.join(dir, "openapi.away"));
    await symlink(path.join(outside, "secret.json"), path.join(dir, "generated/openapi.json"));
    await rename(path.join(dir, "node_modules/.cache/flowgen"), path.join(dir, "cache.away"));
    await mkdir(path.join(outside, "cache"));
    await symlink(path.join(outside, "cache"), path.join(dir, "node_modules/.cache/flowgen"));
    const before = await snapshot(outside);
    await writeFiles(dir, { "specs/@acme/flow-0.json": { ...flow, description: "Edited." } });

    const result = await runCli(dir, "generate");
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain("secret-value-123");
    expect(await snapshot(outside)).toEqual(before);
    expect((await lstat(path.join(dir, "generated/openapi.json"))).isFile()).toBe(true);
  });

  it("flowgen diff never reads an openapi.json linked out of the project, nor quotes a file it cannot parse", async () => {
    const dir = await generatedProject();
    const outside = await outsideFolder({
      "secret.json": {
        openapi: "3.1.0",
        paths: { "/v1/@leak/secret-value-123": { post: { operationId: "leak" } } },
      },
      "shadow.json": "root:$6$secret-salt-456:19000:0:99999:7:::\n",
    });
    await rename(path.join(dir, "generated/openapi.json"), path.join(dir, "openapi.away"));
    await symlink(path.join(outside, "secret.json"), path.join(dir, "generated/openapi.json"));
    const linked = await runCli(dir, "diff", "--base", "generated");
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain("leads out of the project");
    await writeFiles(dir, { "broken.json": "root:$6$secret-salt-456:19000:0:99999:7:::\n" });
    const broken = await runCli(dir, "diff", "--base", "broken.json");
    expect(broken.code).toBe(2);
    const printed = linked.stdout + linked.stderr + broken.stdout + broken.stderr;
    expect(printed).not.toContain("secret-value-123");
    expect(printed).not.toContain("secret-salt-456");
  });
});
