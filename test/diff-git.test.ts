import { execFile } from "node:child_process";
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { diffVersions } from "../src/diff/diff-versions.js";
import { ContractSourceError } from "../src/diff/read-contract.js";
import { banner } from "../src/emit/banner.js";
import { contract } from "./helpers/contract.js";
import { cachedProject } from "./helpers/render-cache.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject, writeFiles } from "./helpers/temp-dir.js";
import { outputFileCount } from "./helpers/output-files.js";

const run = promisify(execFile);
const BIN = path.join(REPO_ROOT, "bin/flowgen.js");

const qa = (extra: { required?: string[]; properties?: Record<string, unknown> } = {}) => ({
  input: {
    type: "object",
    required: ["question", ...(extra.required ?? [])],
    properties: { question: { type: "string" }, ...extra.properties },
  },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
});

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    "git",
    [
      "-c",
      "user.name=flowgen",
      "-c",
      "user.email=flowgen@example.com",
      "-c",
      "commit.gpgsign=false",
      ...args,
    ],
    { cwd: dir },
  );
  return stdout;
}

/** A real repository: v1 (qa, old) tagged, then v2 (old removed) committed. */
async function repository(): Promise<string> {
  const dir = await tempProject({ "specs/@acme/qa.json": qa(), "specs/@acme/old.json": qa() });
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "v1");
  await git(dir, "tag", "v1");
  await rm(path.join(dir, "specs/@acme/old.json"));
  await writeFiles(dir, {
    "specs/@acme/qa.json": qa({ properties: { lang: { type: "string" } } }),
  });
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "v2");
  return dir;
}

function lines(result: Awaited<ReturnType<typeof diffVersions>>): string[] {
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.issues)}`);
  return result.report.changes.map((c) => `${c.flow} ${c.kind} ${c.rule} ${c.pointer}`);
}

describe("diffVersions, on a real git repository", () => {
  it("compares the working tree with HEAD by default, and any two refs", async () => {
    const dir = await repository();
    await writeFiles(dir, {
      "specs/@acme/qa.json": qa({ required: ["lang"], properties: { lang: { type: "string" } } }),
    });
    const where = { cwd: dir, specs: "specs", out: "generated" };
    const sinceHead = await diffVersions(where);
    expect(lines(sinceHead)).toEqual(["@acme/qa breaking required-added /input/required"]);
    expect(sinceHead.ok && [sinceHead.report.base, sinceHead.report.head]).toEqual([
      "HEAD:specs",
      "specs",
    ]);
    expect(lines(await diffVersions({ ...where, base: "v1" }))).toEqual([
      "@acme/old breaking flow-removed ",
      "@acme/qa breaking required-added /input/required",
    ]);
    expect(lines(await diffVersions({ ...where, base: "v1", head: "main" }))).toEqual([
      "@acme/old breaking flow-removed ",
      "@acme/qa compatible property-added /input/properties/lang",
    ]);
    await writeFiles(dir, { "tools/.keep": "" });
    const fromSubfolder = await diffVersions({
      cwd: path.join(dir, "tools"),
      specs: "../specs",
      out: "../generated",
      base: "v1",
      head: "main",
    });
    expect(lines(fromSubfolder)).toEqual([
      "@acme/old breaking flow-removed ",
      "@acme/qa compatible property-added /input/properties/lang",
    ]);
  });

  it("reads the committed openapi.json at a ref that has no specs folder", async () => {
    const dir = await tempProject({
      "generated/openapi.json": contract({
        "@acme/qa": { input: qa().input, output: { type: "object" } },
      }),
    });
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "contract only");
    await writeFiles(dir, { "specs/@acme/qa.json": qa() });
    const result = await diffVersions({ cwd: dir, specs: "specs", out: "generated" });
    expect(result.ok && result.report.base).toBe("HEAD:generated/openapi.json");
    expect(lines(result)).toEqual(["@acme/qa compatible property-added /output/properties/answer"]);
  });

  it("takes an OpenAPI file, a specs folder or an output folder as either version, without git", async () => {
    const dir = await tempProject({
      "old/@acme/qa.json": qa(),
      "specs/@acme/qa.json": qa({ required: ["n"] }),
      "before.json": contract({ "@acme/qa": qa() }),
    });
    expect(
      lines(await diffVersions({ cwd: dir, specs: "specs", out: "generated", base: "old" })),
    ).toEqual(["@acme/qa breaking required-added /input/required"]);
    expect(
      lines(
        await diffVersions({ cwd: dir, specs: "specs", out: "generated", base: "before.json" }),
      ),
    ).toEqual(["@acme/qa breaking required-added /input/required"]);
    await writeFiles(dir, { "generated/openapi.json": contract({ "@acme/qa": qa() }) });
    const output = await diffVersions({
      cwd: dir,
      specs: "specs",
      out: "generated",
      base: "generated",
    });
    expect(output.ok && output.report.base).toBe("generated/openapi.json");
    expect(lines(output)).toEqual(["@acme/qa breaking required-added /input/required"]);
  });

  it("names problems in the specs at a ref by ref and path, unless the ref has its openapi.json to fall back on", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": { input: { type: "object" } } });
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "broken");
    await writeFiles(dir, { "specs/@acme/qa.json": qa() });
    const result = await diffVersions({ cwd: dir, specs: "specs", out: "generated" });
    expect(
      result.ok === false && result.issues.map((issue) => `${issue.file} ${issue.code}`),
    ).toEqual(["HEAD:specs/@acme/qa.json missing-key"]);
    await writeFiles(dir, {
      "generated/openapi.json": contract({ "@acme/qa": { input: { type: "object" } } }),
    });
    await git(dir, "add", "generated/openapi.json");
    await git(dir, "commit", "-q", "-m", "with its contract");
    const fallback = await diffVersions({ cwd: dir, specs: "specs", out: "generated" });
    expect(fallback.ok && fallback.report.base).toBe("HEAD:generated/openapi.json");
  });

  it("says what to pass for an unknown ref, outside a repository, or a file that is no OpenAPI document", async () => {
    const dir = await repository();
    const where = { cwd: dir, specs: "specs", out: "generated" };
    await expect(diffVersions({ ...where, base: "no-such-branch" })).rejects.toThrow(
      new ContractSourceError(
        '"no-such-branch" is neither a file, a folder nor a git commit; pass --base a branch, tag or commit, an openapi.json or a specs folder',
      ),
    );
    await writeFile(path.join(dir, "notes.json"), "{}");
    await expect(diffVersions({ ...where, base: "notes.json" })).rejects.toThrow(
      'notes.json is not an OpenAPI document (it has no "paths")',
    );
    const outside = await tempProject({ "specs/@acme/qa.json": qa() });
    await expect(diffVersions({ cwd: outside, specs: "specs", out: "generated" })).rejects.toThrow(
      /"HEAD" is not a file or folder, and .* is not in a git repository/,
    );
  });
});

describe("symlinked specs at a git ref", () => {
  /** A repository whose first commit has qa; `change` makes the second commit. */
  async function twoCommits(change: (dir: string) => Promise<void>): Promise<string> {
    const dir = await tempProject({
      "package.json": { name: "p", private: true },
      "specs/@acme/qa.json": qa(),
      "flows/search.json": qa(),
      "flows/beta/x.json": qa(),
    });
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "v1");
    await change(dir);
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "v2");
    return dir;
  }

  it("a link to a file or folder inside the project is read as its target at that ref", async () => {
    const dir = await twoCommits(async (dir) => {
      await symlink("../../flows/search.json", path.join(dir, "specs/@acme/search.json"));
      await symlink("../flows/beta", path.join(dir, "specs/@beta"));
    });
    const where = { cwd: dir, specs: "specs", out: "generated", base: "HEAD~1", head: "HEAD" };
    expect(lines(await diffVersions(where))).toEqual([
      "@acme/search compatible flow-added ",
      "@beta/x compatible flow-added ",
    ]);
    // The target's content at each ref: a change to it is a change to the linked flow.
    await writeFiles(dir, { "flows/search.json": qa({ required: ["lang"] }) });
    await git(dir, "commit", "-q", "-am", "v3");
    expect(lines(await diffVersions(where))).toEqual([
      "@acme/search breaking required-added /input/required",
    ]);
    // And a flow removed with its link is a breaking change that --fail-on-breaking stops at.
    await rm(path.join(dir, "specs/@acme/search.json"));
    await git(dir, "commit", "-q", "-am", "v4");
    const removed = await runCli(
      dir,
      "diff",
      "--base",
      "HEAD~1",
      "--head",
      "HEAD",
      "--fail-on-breaking",
    );
    expect(removed.code).toBe(4);
    expect(removed.stdout).toContain("@acme/search");
  });

  it("a link leading out of the project, nowhere, or into a folder holding it is refused as in the working tree", async () => {
    // The repository in a folder beside a file of the machine's: the links can reach it.
    const outer = await tempProject({ "outside.json": qa() });
    const dir = path.join(outer, "p");
    await writeFiles(dir, { "package.json": { name: "p" }, "specs/@acme/qa.json": qa() });
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "v1");
    await symlink("../../../outside.json", path.join(dir, "specs/@acme/out.json"));
    await symlink(path.join(outer, "outside.json"), path.join(dir, "specs/@acme/abs.json"));
    await symlink("../../flows/none.json", path.join(dir, "specs/@acme/none.json"));
    await symlink("..", path.join(dir, "specs/@acme/loop"));
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", "v2");
    // The same links in the working tree and at HEAD: the same problems, named by ref and path.
    const problems = async (head?: string) => {
      const where = { cwd: dir, specs: "specs", out: "generated", base: "HEAD~1", head };
      const result = await diffVersions(where);
      return result.ok
        ? []
        : result.issues.map((issue) => `${issue.file} ${issue.code}: ${issue.message}`);
    };
    const atHead = await problems("HEAD");
    expect(atHead.map((line) => line.replace(outer, "<outer>"))).toMatchInlineSnapshot(`
      [
        "HEAD:specs/@acme/abs.json outside-project: symlink to <outer>/outside.json, outside the project (the folder holding package.json or .git); flowgen reads specs only from inside the project: copy what you need into it, or remove the link",
        "HEAD:specs/@acme/loop unreadable-file: symlink to a folder that contains it, which would be read forever; remove the link or point it elsewhere",
        "HEAD:specs/@acme/none.json unreadable-file: symlink to ../../flows/none.json, which does not exist; fix the link or remove it",
        "HEAD:specs/@acme/out.json outside-project: symlink to ../../../outside.json, outside the project (the folder holding package.json or .git); flowgen reads specs only from inside the project: copy what you need into it, or remove the link",
      ]
    `);
    expect(atHead.map((line) => line.replace(/^HEAD:/, ""))).toEqual(await problems());
  });
});

describe("flowgen diff and generate --fail-on-breaking", () => {
  it("diff prints JSON or Markdown and exits 4 on a breaking change only with --fail-on-breaking", async () => {
    const dir = await repository();
    // As a process: the exit code and the JSON on stdout are the binary's own.
    const failing = await run(
      process.execPath,
      [BIN, "diff", "--base", "v1", "--format", "json", "--fail-on-breaking"],
      { cwd: dir },
    ).catch((error: { code: number; stdout: string }) => error);
    expect("code" in failing && failing.code).toBe(4);
    expect(JSON.parse(failing.stdout)).toMatchObject({
      base: "v1:specs",
      head: "specs",
      breaking: 1,
      compatible: 1,
    });
    const markdown = await runCli(dir, "diff", "--base", "v1", "--format", "markdown");
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(
      "| `@acme/old` |  | flow removed without being deprecated first;",
    );
  });

  it("generate --fail-on-breaking exits 4 and writes nothing; without it, writes and lists the changes", async () => {
    // The output folder of an earlier run, as flowgen writes it: the contract and an index.ts with its banner.
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa(),
      "generated/openapi.json": contract({ "@acme/qa": qa() }),
      "generated/index.ts": `${banner("the specs")}\n`,
    });
    const before = await readFile(path.join(dir, "generated/openapi.json"), "utf8");
    await writeFiles(dir, {
      "specs/@acme/qa.json": qa({ required: ["lang"], properties: { lang: { type: "string" } } }),
    });
    const refused = await runCli(dir, "generate", "--fail-on-breaking");
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      '@acme/qa #/input/required: "lang" is now required (breaking for callers)',
    );
    expect(refused.stderr).toContain(
      "flowgen: 1 change would break callers; nothing was written (--fail-on-breaking).",
    );
    expect(await readFile(path.join(dir, "generated/openapi.json"), "utf8")).toBe(before);
    const accepted = await runCli(dir, "generate");
    expect(accepted.code).toBe(0);
    // Added: the flow's module, its types, the manifest and the runtime's files; changed: openapi.json and index.ts.
    const added = outputFileCount(1) - 2;
    expect(accepted.stdout).toMatch(
      new RegExp(
        `^@acme/qa #/input/required: "lang" is now required \\(breaking for callers\\)\\nContract generated/openapi.json → specs: 1 breaking change, 0 compatible changes\\nflowgen: 1 flow → generated: ${added} added, 2 changed, 0 removed, 0 unchanged`,
      ),
    );
  });
});
