import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { addScripts, attributesPattern, gitattributesText } from "../src/scaffold/project-files.js";
import { schemaRef } from "../src/scaffold/spec-skeleton.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";
import { outputFileCount } from "./helpers/output-files.js";

const flowgen = runCli;
const run = promisify(execFile);

/** A project with flowgen installed the way npm links it: node_modules/flowgen-cli. */
async function projectWithFlowgen(files: Record<string, unknown>): Promise<string> {
  const dir = await tempProject(files);
  await mkdir(path.join(dir, "node_modules"), { recursive: true });
  await symlink(REPO_ROOT, path.join(dir, "node_modules/flowgen-cli"), "dir");
  return dir;
}

/** The `$schema` of a spec file, resolved the way an editor does: relative to the file. */
async function resolvedSchema(specFile: string): Promise<string> {
  const spec = JSON.parse(await readFile(specFile, "utf8")) as { $schema: string };
  return path.resolve(path.dirname(specFile), spec.$schema);
}

describe("flowgen init", () => {
  it("sets a project up so that generate and --check work at once, and a second init changes nothing", async () => {
    const dir = await projectWithFlowgen({
      "package.json":
        '{\n    "name": "app",\n    "scripts": {\n        "flowgen:generate": "flowgen generate --validators"\n    }\n}\n',
      ".gitattributes": "*.png binary",
    });
    const init = await flowgen(dir, "init");
    const missing =
      "warning: package.json #/dependencies: openapi-fetch is not a dependency of this package, but the generated clients import it at run time; it may resolve now through another package's copy and then fail with ERR_MODULE_NOT_FOUND. Add it: npm install openapi-fetch [missing-dependency] flowgen-cli/docs/errors.md#missing-dependency\n";
    expect(init).toEqual({
      code: 0,
      stderr: missing,
      stdout: [
        // No "type": a CommonJS package, where a .ts config with import/export would not compile.
        "flowgen init: created flowgen.config.mts",
        "flowgen init: created specs/@example/hello.json (an example flow)",
        "flowgen init: added to package.json the scripts flowgen:check, flowgen:watch, flowgen:serve",
        "flowgen init: marked generated/ in .gitattributes as generated, checked out with LF line ends",
        "Next: npm run flowgen:generate (or flowgen:watch), then import the clients from the output folder.",
        "",
      ].join("\n"),
    });
    const manifest = await readFile(path.join(dir, "package.json"), "utf8");
    expect(manifest).toContain(
      '\n    "scripts": {\n        "flowgen:generate": "flowgen generate --validators",\n        "flowgen:check": "flowgen generate --check",',
    );
    expect(await readFile(path.join(dir, ".gitattributes"), "utf8")).toBe(
      "*.png binary\ngenerated/** linguist-generated=true eol=lf\n",
    );
    expect(await resolvedSchema(path.join(dir, "specs/@example/hello.json"))).toBe(
      path.join(dir, "node_modules/flowgen-cli/schema/flow-spec.schema.json"),
    );
    expect(existsSync(await resolvedSchema(path.join(dir, "specs/@example/hello.json")))).toBe(
      true,
    );

    const generated = await flowgen(dir, "generate");
    expect(generated.stderr).toBe(missing);
    expect(generated.stdout).toMatch(
      new RegExp(`^flowgen: 1 flow → generated: ${outputFileCount(1)} added`),
    );
    expect((await flowgen(dir, "generate", "--check")).code).toBe(0);

    const again = await flowgen(dir, "init");
    expect(again.stdout).toContain(
      "flowgen init: kept flowgen.config.mts\nflowgen init: kept specs/ (it has specs already)\nflowgen init: kept the package.json scripts\n",
    );
    expect(await readFile(path.join(dir, "package.json"), "utf8")).toBe(manifest);
  });

  it("without a package.json writes a minimal one and says to install flowgen", async () => {
    const dir = await tempProject({});
    const init = await flowgen(dir, "init", "--out", "src/flows");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Next: npm install -D flowgen-cli\n");
    expect(init.stderr).toContain(
      "Add it: npm install openapi-fetch [missing-dependency] flowgen-cli/docs/errors.md#missing-dependency",
    );
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"))).toMatchObject({
      private: true,
      type: "module",
      scripts: { "flowgen:generate": "flowgen generate" },
    });
    expect(await readFile(path.join(dir, "flowgen.config.ts"), "utf8")).toContain(
      'out: "src/flows",',
    );
    expect(await readFile(path.join(dir, ".gitattributes"), "utf8")).toBe(
      "src/flows/** linguist-generated=true eol=lf\n",
    );
    // Until flowgen is installed, the config that imports it says what to do.
    expect((await flowgen(dir, "generate")).stderr).toContain(
      "install flowgen in this project: npm install -D flowgen-cli [invalid-config] flowgen-cli/docs/errors.md#invalid-config",
    );
  });
});

describe("flowgen new", () => {
  it("writes a spec skeleton that generates as it is, laid out by prettier, with a $schema from node_modules", async () => {
    const dir = await projectWithFlowgen({ "flowgen.config.json": { specs: "flows" } });
    const made = await flowgen(dir, "new", "@acme/summarize");
    expect(made).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "flowgen: wrote flows/@acme/summarize.json; fill in its input and output schemas and the example, then run flowgen generate.\n",
    });
    const file = path.join(dir, "flows/@acme/summarize.json");
    const text = await readFile(file, "utf8");
    expect(text).toContain(
      '"$schema": "../../node_modules/flowgen-cli/schema/flow-spec.schema.json"',
    );
    expect(text).toContain('"required": ["text"],');
    expect(existsSync(await resolvedSchema(file))).toBe(true);
    expect((await flowgen(dir, "generate")).code).toBe(0);

    expect(await flowgen(dir, "new", "@acme/summarize")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("flows/@acme/summarize.json already exists"),
    });
    expect(await flowgen(dir, "new", "acme")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"acme" is not a flow id: write @org/flow-name'),
    });
    expect(await flowgen(dir, "new", "@Acme/x")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('org "Acme" breaks the rule'),
    });
    expect(await flowgen(dir, "new", "@acme/enums", "--enums")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--enums drafts enums from recorded calls, and needs them"),
    });
    expect(existsSync(path.join(dir, "flows/@acme/enums.json"))).toBe(false);
  });

  it("writes only where generate reads: not outside the project, nor through an org folder that links out", async () => {
    const outside = await tempProject({});
    const dir = await tempProject({ "package.json": { name: "app", private: true } });
    const away = await flowgen(dir, "new", "@acme/zz", "--specs", path.join(outside, "specs"));
    expect(away.code).toBe(2);
    expect(away.stderr).toContain("[outside-project]");
    expect(existsSync(path.join(outside, "specs"))).toBe(false);
    await mkdir(path.join(dir, "specs"), { recursive: true });
    await symlink(outside, path.join(dir, "specs/@acme"));
    const linked = await flowgen(dir, "new", "@acme/zz");
    expect(linked).toMatchObject({ code: 2, stdout: "" });
    expect(linked.stderr).toContain("specs/@acme is a link leading out of the specs folder");
    expect(existsSync(path.join(outside, "zz.json"))).toBe(false);
  });

  it("points $schema at this repository's schema/ when run in flowgen itself", () => {
    expect(schemaRef(path.join(REPO_ROOT, "specs/@acme/x.json"), REPO_ROOT)).toBe(
      "../../schema/flow-spec.schema.json",
    );
  });
});

describe("flowgen init from a folder below the project's root", () => {
  it.each([
    ["a repository without a package.json", { ".git/HEAD": "ref: refs/heads/main\n" }],
    ["a package.json in the home folder", { "package.json": { name: "stray" } }],
  ])("sets up the working directory below %s", async (_name, above) => {
    const dir = await tempProject(above);
    const app = path.join(dir, "app");
    await mkdir(app);
    const home = process.env.HOME;
    process.env.HOME = dir;
    try {
      expect((await flowgen(app, "init")).code).toBe(0);
    } finally {
      process.env.HOME = home;
    }
    expect(existsSync(path.join(app, "package.json"))).toBe(true);
    expect(existsSync(path.join(app, "flowgen.config.ts"))).toBe(true);
    expect(existsSync(path.join(dir, "flowgen.config.ts"))).toBe(false);
    expect(existsSync(path.join(dir, "specs"))).toBe(false);
  });

  it("sets up the project it is in, never a package.json of the folder's own", async () => {
    const dir = await projectWithFlowgen({
      "package.json": { name: "app", type: "commonjs", dependencies: { "openapi-fetch": "*" } },
      "src/app/main.js": "module.exports = 1;\n",
    });
    const app = path.join(dir, "src/app");
    const first = await flowgen(app, "init", "--out", "generated");
    expect(first.code).toBe(0);
    expect(first.stdout.split("\n").slice(0, 3)).toEqual([
      "flowgen init: setting up the project at ../.. (the folder holding its package.json); paths below are from there",
      "flowgen init: created flowgen.config.mts",
      "flowgen init: created specs/@example/hello.json (an example flow)",
    ]);
    expect(existsSync(path.join(app, "package.json"))).toBe(false);
    // --out named from the folder it ran in; the config, at the root, names it from there.
    expect(await readFile(path.join(dir, "flowgen.config.mts"), "utf8")).toContain(
      'out: "src/app/generated",',
    );
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"))).toMatchObject({
      type: "commonjs",
      scripts: { "flowgen:check": "flowgen generate --check" },
    });
    expect((await flowgen(app, "generate")).code).toBe(0);
    const again = await flowgen(app, "init");
    expect(again.stdout).toContain("flowgen init: kept flowgen.config.mts");
    expect(existsSync(path.join(app, "package.json"))).toBe(false);
    expect(await flowgen(app, "generate", "--check")).toMatchObject({ code: 0, stderr: "" });
  });
});

describe("the files init edits", () => {
  const LINE = "generated/** linguist-generated=true eol=lf";
  it.each([
    ["no file", { given: undefined, want: `${LINE}\n` }],
    ["empty file", { given: "", want: `${LINE}\n` }],
    ["no final newline", { given: "*.png binary", want: `*.png binary\n${LINE}\n` }],
    ["line there, CRLF", { given: `${LINE}\r\n`, want: `${LINE}\r\n` }],
    [
      "an earlier init's line, without eol=lf: completed in place",
      {
        given: "*.png binary\r\ngenerated/** linguist-generated=true\r\n*.jpg binary\r\n",
        want: `*.png binary\r\n${LINE}\r\n*.jpg binary\r\n`,
      },
    ],
  ])(".gitattributes: %s", (_name, { given, want }) => {
    expect(gitattributesText(given, "generated/")).toBe(want);
  });

  it.each([
    ["plain", { given: "gen/out", want: "gen/out/**" }],
    ["a space", { given: "we ird/gen", want: '"we ird/gen/**"' }],
    ["a tab and a quote", { given: 'a\tb"c', want: '"a\\tb\\"c/**"' }],
    ["glob characters", { given: "gen[1]*?", want: "gen\\[1]\\*\\?/**" }],
    ["a backslash and a space", { given: "a\\b c", want: '"a\\\\\\\\b c/**"' }],
    ["a leading !", { given: "!gen", want: "\\!gen/**" }],
    ["a leading #", { given: "#gen", want: "\\#gen/**" }],
  ])(".gitattributes pattern: %s", (_name, { given, want }) => {
    expect(attributesPattern(given)).toBe(want);
  });

  it.each([
    ["a space: quoted as git reads it", "my out", '"my out/**" linguist-generated=true eol=lf'],
    ["glob characters: escaped", "x[1]", "x\\[1]/** linguist-generated=true eol=lf"],
    ["a leading #: not a comment", "#gen", "\\#gen/** linguist-generated=true eol=lf"],
    ["a quote", 'a"b c', '"a\\"b c/**" linguist-generated=true eol=lf'],
  ])(".gitattributes for an output folder with %s", (_name, out, want) => {
    expect(gitattributesText(undefined, out)).toBe(`${want}\n`);
  });

  it("init --out with a space: git check-attr marks the folder's files as generated", async () => {
    const dir = await tempProject({});
    await git(dir, "init", "-q");
    const init = await flowgen(dir, "init", "--out", "we ird/gen");
    expect(init.code).toBe(0);
    expect(await readFile(path.join(dir, ".gitattributes"), "utf8")).toBe(
      '"we ird/gen/**" linguist-generated=true eol=lf\n',
    );
    const attr = await git(dir, "check-attr", "linguist-generated", "--", "we ird/gen/x.ts");
    expect(attr).toEqual({ stdout: "we ird/gen/x.ts: linguist-generated: true\n", stderr: "" });
    // A second init finds its line and adds none.
    expect((await flowgen(dir, "init", "--out", "we ird/gen")).stdout).not.toContain("marked");
  });

  it("writes patterns git reads as the output folder: git check-attr marks a file in it", async () => {
    const folders = ["we ird/gen", 'a\tb"c', "gen[1]*?", "a\\b c", "!gen", "#gen", "new\nline"];
    const dir = await tempProject({});
    await git(dir, "init", "-q");
    let attributes: string | undefined;
    for (const folder of folders) attributes = gitattributesText(attributes, folder);
    await writeFile(path.join(dir, ".gitattributes"), attributes ?? "");
    const files = folders.map((folder) => `${folder}/x.ts`);
    const { stdout, stderr } = await git(
      dir,
      "check-attr",
      "-z",
      "linguist-generated",
      "--",
      ...files,
      "gen1/x.ts",
    );
    expect(stderr).toBe("");
    // -z: path, attribute and value, each ended by NUL.
    const values = stdout.split("\0").filter((_field, i) => i % 3 === 2);
    expect(values).toEqual([...folders.map(() => "true"), "unspecified"]);
  });

  it.each([
    [
      "tabs kept",
      { given: '{\n\t"name": "a"\n}\n', want: /^\t"scripts": \{\n\t\t"flowgen:generate"/m },
    ],
    [
      "two spaces by default",
      { given: undefined, want: /^ {2}"scripts": \{\n {4}"flowgen:generate"/m },
    ],
  ])("package.json: %s", (_name, { given, want }) => {
    expect(addScripts(given, "app").text).toMatch(want);
  });
});

/** Runs git in `cwd`, with no user or system config of this machine to change what it says. */
function git(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  return promisify(execFile)("git", args, { cwd, env });
}

describe("flowgen init and the project boundary", () => {
  const SECRET = "root:$6$SECRETSALT$hash:19000:0:99999:7:::\n";

  /** A project (a .git folder marks it) and, beside it, a folder outside it with a secret file. */
  async function projectAndOutside(): Promise<{ dir: string; outside: string }> {
    const dir = await tempProject({ ".git/HEAD": "ref: refs/heads/main\n" });
    const outside = await tempProject({ shadow: SECRET, attributes: "* text=auto\n" });
    return { dir, outside };
  }

  it("refuses a package.json linked outside the project, naming it, and never prints what it holds", async () => {
    const { dir, outside } = await projectAndOutside();
    await symlink(path.join(outside, "shadow"), path.join(dir, "package.json"));
    const init = await flowgen(dir, "init");
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("package.json");
    expect(init.stderr).toContain("[outside-project]");
    expect(init.stderr).not.toContain("root:");
    expect(init.stdout).not.toContain("root:");
    expect(await readFile(path.join(outside, "shadow"), "utf8")).toBe(SECRET);
    expect(existsSync(path.join(dir, "flowgen.config.ts"))).toBe(false);
  });

  it("never writes through a .gitattributes or package.json linked outside, even to a file not there yet", async () => {
    const { dir, outside } = await projectAndOutside();
    await symlink(path.join(outside, "attributes"), path.join(dir, ".gitattributes"));
    await symlink(path.join(outside, "new-package.json"), path.join(dir, "package.json"));
    const init = await flowgen(dir, "init");
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(
      /^\.gitattributes: symlink to .*attributes leads outside the project/m,
    );
    expect(init.stderr).toMatch(
      /^package\.json: symlink to .*new-package\.json leads outside the project/m,
    );
    expect(await readFile(path.join(outside, "attributes"), "utf8")).toBe("* text=auto\n");
    expect(existsSync(path.join(outside, "new-package.json"))).toBe(false);
    expect(existsSync(path.join(dir, "specs"))).toBe(false);
  });

  it("says where package.json stops being JSON without quoting it, and writes nothing", async () => {
    const dir = await tempProject({ "package.json": '{\n  "name": "app",\n  root:$6$SECRET\n}\n' });
    const init = await flowgen(dir, "init");
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(
      "flowgen init: package.json is not valid JSON at line 3, column 3; fix it and run flowgen init again; nothing was written. [syntax-error]",
    );
    expect(init.stderr).not.toContain("root:");
    expect(existsSync(path.join(dir, "flowgen.config.ts"))).toBe(false);
  });

  it("marks --out ./gen in .gitattributes as git reads patterns, without ./", async () => {
    const dir = await projectWithFlowgen({ "package.json": { name: "app", type: "module" } });
    const init = await flowgen(dir, "init", "--out", "./gen");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      "flowgen init: marked gen/ in .gitattributes as generated, checked out with LF line ends",
    );
    expect(await readFile(path.join(dir, ".gitattributes"), "utf8")).toBe(
      "gen/** linguist-generated=true eol=lf\n",
    );
  });

  it("in a workspace package, writes the package a config of its own beside the root's", async () => {
    const dir = await projectWithFlowgen({
      "package.json": { private: true, workspaces: ["packages/*"] },
      "flowgen.config.json": { specs: "packages/web/specs", out: "packages/web/generated" },
      "packages/api/package.json": { name: "api", type: "module" },
    });
    const api = path.join(dir, "packages/api");
    const init = await flowgen(api, "init");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("flowgen init: created flowgen.config.ts\n");
    expect(existsSync(path.join(api, "specs/@example/hello.json"))).toBe(true);
    const generated = await flowgen(api, "generate");
    expect(generated.stdout).toMatch(/^flowgen: 1 flow → generated: /);
    // The package the root's config is for keeps it.
    const web = path.join(dir, "packages/web");
    await mkdir(web, { recursive: true });
    await writeFile(path.join(web, "package.json"), JSON.stringify({ name: "web" }));
    const kept = await flowgen(web, "init");
    expect(kept.stdout).toContain("flowgen init: kept ../../flowgen.config.json\n");
    expect(existsSync(path.join(web, "flowgen.config.ts"))).toBe(false);
  });

  it("refuses a folder flag its kept config does not name, and writes nothing", async () => {
    const dir = await projectWithFlowgen({
      "package.json": { name: "app", type: "module" },
      "flowgen.config.json": { specs: "api-specs" },
    });
    const init = await flowgen(dir, "init", "--specs", "other", "--out", "generated");
    expect(init.code).toBe(2);
    expect(init.stderr).toBe(
      '--specs: flowgen.config.json keeps its specs folder, api-specs, which generate uses; change "specs" in flowgen.config.json, or run flowgen init without --specs [invalid-option] flowgen-cli/docs/errors.md#invalid-option\nflowgen init: 1 problem; nothing was written.\n',
    );
    expect(existsSync(path.join(dir, "other"))).toBe(false);
    expect(existsSync(path.join(dir, ".gitattributes"))).toBe(false);
  });
});

/** git in `cwd`, as a user with a name and no signing; its stdout. */
async function gitStdout(cwd: string, ...args: string[]): Promise<string> {
  const identity = ["-c", "user.name=flowgen", "-c", "user.email=flowgen@example.com"];
  const { stdout } = await run("git", [...identity, "-c", "commit.gpgsign=false", ...args], {
    cwd,
  });
  return stdout;
}

describe("line ends under git's core.autocrlf=true (Git for Windows' default)", () => {
  /** A project set up by init, generated and committed; then cloned with core.autocrlf=true. */
  async function cloneWithAutocrlf(attributes?: string): Promise<string> {
    const dir = await projectWithFlowgen({
      "package.json": { name: "app", type: "module", dependencies: { "openapi-fetch": "*" } },
    });
    expect((await flowgen(dir, "init")).code).toBe(0);
    if (attributes !== undefined) await writeFile(path.join(dir, ".gitattributes"), attributes);
    expect((await flowgen(dir, "generate")).code).toBe(0);
    await gitStdout(dir, "init", "-q");
    await writeFile(path.join(dir, ".gitignore"), "node_modules\n");
    await gitStdout(dir, "add", "-A");
    await gitStdout(dir, "commit", "-q", "-m", "flowgen");
    const clone = path.join(dir, "node_modules", "clone");
    await gitStdout(dir, "-c", "core.autocrlf=true", "clone", "-q", dir, clone);
    await mkdir(path.join(clone, "node_modules"));
    await symlink(REPO_ROOT, path.join(clone, "node_modules/flowgen-cli"), "dir");
    return clone;
  }

  it("with the line init writes, the clone's generated files keep LF and --check passes", async () => {
    const clone = await cloneWithAutocrlf();
    expect(await readFile(path.join(clone, "generated/index.ts"), "utf8")).not.toContain("\r");
    // The specs are the project's own: checked out with CRLF, they give the same output and manifest.
    expect(await readFile(path.join(clone, "specs/@example/hello.json"), "utf8")).toContain("\r\n");
    expect(await flowgen(clone, "generate", "--check")).toMatchObject({ code: 0, stderr: "" });
  });

  it("without eol=lf, --check says the files differ only in their line ends, and what to do", async () => {
    const clone = await cloneWithAutocrlf("generated/** linguist-generated=true\n");
    expect(await readFile(path.join(clone, "generated/index.ts"), "utf8")).toContain("\r\n");
    const checked = await flowgen(clone, "generate", "--check");
    expect(checked.code).toBe(1);
    const lines = checked.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^flowgen: generated is stale: \d+ files differ from the specs, in their line ends only\.$/,
    );
    expect(lines.filter((line) => line.startsWith("  changed")).length).toBeGreaterThan(10);
    expect(lines.filter((line) => line.startsWith("  changed"))).toEqual(
      lines.filter((line) => line.endsWith(" (line ends only)")),
    );
    expect(lines.at(-1)).toMatch(
      /^flowgen: \d+ files have CRLF line ends where flowgen writes LF \(they differ in nothing else\), as git checks files out with core\.autocrlf=true .*Add eol=lf to the \.gitattributes line for generated\/ and commit it/,
    );
    // No diff of every line: there is nothing else to show.
    expect(checked.stderr).not.toContain("(committed)");
  });

  it.each(["my out", "x[1]", "#gen", "a$b"])(
    "init's line matches the files of an output folder named %j",
    async (out) => {
      const dir = await tempProject({ [`${out}/@acme/qa.ts`]: "" });
      await gitStdout(dir, "init", "-q");
      await writeFile(path.join(dir, ".gitattributes"), gitattributesText(undefined, out));
      const attributes = await gitStdout(
        dir,
        "check-attr",
        "eol",
        "linguist-generated",
        "--",
        `${out}/@acme/qa.ts`,
      );
      expect(attributes).toMatch(/: eol: lf\n.*: linguist-generated: true\n$/);
    },
  );
});
