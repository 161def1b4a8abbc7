import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeInternalError } from "../src/cli/command.js";
import type { IssueCode } from "../src/issues.js";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { cachedProject } from "./helpers/render-cache.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
};

describe("command-line mistakes exit 2 naming the flag, before anything runs", () => {
  it.each<[string[], string]>([
    [["generate", "-check"], "flowgen: -check is not an option; did you mean --check?"],
    [["generate", "-chek"], "flowgen: -chek is not an option (short options are -h, -v, -w, -q)"],
    [["-check"], "flowgen: -check is not an option"],
    [["serve", "-x"], "flowgen: -x is not an option (short options are -h, -v)"],
    [["generate", "--specs"], "flowgen: --specs needs a value, such as --specs specs"],
    [["generate", "--specs", "--check"], "flowgen: --specs needs a value"],
    [["generate", "--out="], "flowgen: --out needs a value, such as --out generated"],
    [["generate", "--config"], "flowgen: --config needs a value"],
    [["serve", "--port"], "flowgen: --port needs a value, such as --port 8787"],
    [["serve", "--port", "abc"], 'flowgen: --port must be a number, not "abc"'],
    [["serve", "--fault"], "flowgen: --fault needs a value"],
    [["diff", "--format"], "flowgen: --format needs a value"],
    [
      ["verify", "--seed", "abc"],
      'flowgen: --seed must be a number, not "abc", such as --seed 42 [invalid-option]',
    ],
    [
      ["verify", "--format", "xml"],
      'flowgen: --format must be one of "text", "json", "junit", not "xml" [invalid-option]',
    ],
    // yargs reads any value but "true" as false: --check=1 would write, and the CI step pass.
    [
      ["generate", "--check=1"],
      'flowgen: --check is on or off, not "1": write --check (or --check=true) to turn it on, --no-check (or --check=false) to turn it off [invalid-option]',
    ],
    [["generate", "--check=yes"], 'flowgen: --check is on or off, not "yes"'],
    // The command after a global option, as yargs reads it.
    [
      ["--config", "flowgen.config.json", "generate", "--check=1"],
      'flowgen: --check is on or off, not "1"',
    ],
    [["generate", "--check=on"], 'flowgen: --check is on or off, not "on"'],
    [["generate", "--check=TRUE"], 'flowgen: --check is on or off, not "TRUE"'],
    [["generate", "--validators=1"], 'flowgen: --validators is on or off, not "1"'],
    [["generate", "--failOnBreaking=yes"], 'flowgen: --fail-on-breaking is on or off, not "yes"'],
    [["generate", "-w=1"], 'flowgen: --watch is on or off, not "1"'],
    [
      ["diff", "--base", "main", "--fail-on-breaking=yes"],
      'flowgen: --fail-on-breaking is on or off, not "yes"',
    ],
    [
      ["generate", "--no-check=true"],
      'flowgen: --no-check takes no value, not "true": write --no-check (or --check=false) to turn --check off',
    ],
    // A value flag given twice: yargs made a list of it, and the run crashed inside.
    [
      ["generate", "--out", "a", "--out", "b"],
      'flowgen: --out is given twice ("a", "b"); give it once [invalid-option]',
    ],
    [["generate", "--specs", "x", "--specs", "x"], 'flowgen: --specs is given twice ("x", "x")'],
    [
      ["generate", "--base-url", "http://a", "--baseUrl=http://b"],
      'flowgen: --base-url is given twice ("http://a", "http://b")',
    ],
    [
      ["diff", "--base", "main", "--base", "HEAD"],
      'flowgen: --base is given twice ("main", "HEAD")',
    ],
    [["new", "@a/b", "--specs", "s", "--specs", "s"], 'flowgen: --specs is given twice ("s", "s")'],
    [
      ["serve", "--port", "0", "--port", "0", "--port", "1"],
      'flowgen: --port is given 3 times ("0", "0", "1"); give it once',
    ],
    [["verify", "--config", "a", "--config", "b"], 'flowgen: --config is given twice ("a", "b")'],
    // No command reads words after --: they were dropped, and the run went on without them.
    [
      ["generate", "--", "--check"],
      'flowgen: "--check" comes after --, where flowgen generate reads nothing; move it before the --, or leave the -- out [invalid-option]',
    ],
    [["generate", "--check", "--", "extra"], 'flowgen: "extra" comes after --'],
    [
      ["verify", "--", "@acme/qa", "@acme/b"],
      'flowgen: "@acme/qa", "@acme/b" come after --, where flowgen verify reads nothing; move them',
    ],
    [["--", "generate"], 'flowgen: "generate" comes after --, where flowgen reads nothing'],
    // yargs read ---check as -check and check, and the hint was "--check: did you mean --check?".
    [["generate", "---check"], "flowgen: ---check has 3 dashes; write --check [invalid-option]"],
    [["generate", "----out=x"], "flowgen: ----out has 4 dashes; write --out=x"],
    [
      ["generate", "---chek"],
      "flowgen: ---chek has 3 dashes, and --chek is not an option either; long options take two dashes",
    ],
  ])("flowgen %j", async (argv, message) => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const run = await flowgen(dir, ...argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("Run flowgen --help for usage.");
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(/ \[invalid-option\] flowgen-cli\/docs\/errors\.md#invalid-option$/);
    expect(await readdir(dir)).toEqual(["specs"]);
  });

  it("wraps help lines between words, never inside one", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const help = await flowgen(dir, "generate", "--help");
    // Each description, its lines joined again, reads as written.
    const joined = help.stdout.replace(/\s*\n\s*/g, " ");
    expect(joined).toContain("found from the working directory");
    expect(joined).toContain("one typed client module per flow");
  });

  it("quotes the glob in verify's help example, so a shell passes it to flowgen unexpanded", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const help = await flowgen(dir, "verify", "--help");
    expect(help.stdout).toContain("flowgen verify '@acme/*' --generate 5");
    expect(help.stdout).not.toMatch(/verify @acme\/\*/);
  });

  it("still takes the short flags it has, bundled too, and negative numbers as values", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    expect((await flowgen(dir, "generate", "-h")).code).toBe(0);
    expect((await flowgen(dir, "-v")).code).toBe(0);
    // -w (watch) with -h: help, as yargs has it; no file is written.
    expect((await flowgen(dir, "generate", "-wh")).code).toBe(0);
    const seeded = await flowgen(dir, "serve", "--seed", "-1", "--port", "x");
    expect(seeded.stderr).toContain('--port must be a number, not "x"');
    expect(seeded.stderr).not.toContain("--seed");
  });
});

describe("a flag given more than once", () => {
  it("is fine for the flags made to repeat: each --from-sample with its --from-sample-output", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const run = await flowgen(dir, "new", "@acme/b", "--from-sample", "x", "--from-sample", "y");
    expect(run.stderr).toContain("2 input samples and 0 output samples do not pair up");
    expect(run.stderr).not.toContain("given twice");
  });
});

describe("a boolean flag written with a value", () => {
  it("takes true and false: --check=true checks, --check=false writes", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": qa });
    const checked = await flowgen(dir, "generate", "--check=true");
    expect(checked.code).toBe(1);
    expect(await readdir(dir)).not.toContain("generated");
    const written = await flowgen(dir, "generate", "--check=false", "--validators=false");
    expect(written.code).toBe(0);
    expect(await readdir(dir)).toContain("generated");
  });
});

describe("an output folder and a specs folder that overlap", () => {
  it.each<[string[], string]>([
    [["--out", "specs/generated"], "the output folder lies inside the specs folder specs"],
    [
      ["--specs", "generated/specs", "--out", "generated"],
      "holds the specs folder generated/specs",
    ],
    [["--specs", ".", "--out", "generated"], "lies inside the specs folder ."],
    [["--out", "specs"], "the output folder is the specs folder"],
  ])("generate %j is refused before anything is written", async (flags, message) => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa, "generated/specs/.keep": "" });
    for (const mode of [[], ["--check"]]) {
      const run = await flowgen(dir, "generate", ...mode, ...flags);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain(
        "[overlapping-folders] flowgen-cli/docs/errors.md#overlapping-folders\n",
      );
      expect(run.stderr).toMatch(/flowgen: 1 problem; nothing was (written|checked)\.\n$/);
    }
    expect((await readdir(dir)).sort()).toEqual(["generated", "specs"]);
    expect(await readdir(path.join(dir, "specs"))).toEqual(["@acme"]);
  });

  it("is refused from the config file too, and by init", async () => {
    const dir = await tempProject({
      "flowgen.config.json": { out: "specs/client" },
      "specs/@acme/qa.json": qa,
    });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("specs/client: the output folder lies inside the specs folder");
    const init = await tempProject({});
    const refused = await flowgen(init, "init", "--specs", "api", "--out", "api/gen");
    expect(refused.code).toBe(2);
    expect(await readdir(init)).toEqual([]);
  });
});

describe("flowgen serve: a host or port it cannot listen on", () => {
  it.each<[string[], RegExp, IssueCode]>([
    // An empty label: the resolver refuses the name itself, so no query leaves the machine.
    [
      ["--host", "nosuch..invalid"],
      /^flowgen serve: the host "nosuch\.\.invalid" does not resolve to an address \(E[A-Z_]+\); pass --host with an address of this machine/,
      "cannot-listen",
    ],
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    [
      ["--host", "192.0.2.1"],
      /^flowgen serve: cannot listen on 192\.0\.2\.1(:\d+)?: it is not an address of this machine/,
      "cannot-listen",
    ],
    [
      ["--port", "70000"],
      /^--port: must be a port number from 0 to 65535, not 70000/,
      "invalid-option",
    ],
    [["--port", "-1"], /^--port: must be a port number from 0 to 65535, not -1/, "invalid-option"],
    [
      ["--rate", "0"],
      /^flowgen serve: rate must be a finite number .* \(--rate 10\)/,
      "invalid-option",
    ],
  ])("%j exits 2 with a sentence, not an internal error", async (flags, message, code) => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const port = flags.includes("--port") ? [] : ["--port", "0"];
    const run = await flowgen(dir, "serve", "--no-watch", ...port, ...flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.split("\n")[0]).toMatch(
      new RegExp(` \\[${code}\\] flowgen-cli/docs/errors\\.md#${code}$`),
    );
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).not.toContain("    at ");
  });
});

describe("counts in messages", () => {
  it("say 1 flow, 1 file and 1 problem, in the singular", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": qa });
    const generated = await flowgen(dir, "generate");
    expect(generated.stdout).toMatch(/^flowgen: 1 flow → generated: /);
    expect((await flowgen(dir, "generate", "--check")).stdout).toMatch(
      /^flowgen: generated is up to date \(\d+ files, 1 flow\)\.$/m,
    );
    await writeFile(path.join(dir, "generated/@acme/qa.ts"), "// edited\n");
    const stale = await flowgen(dir, "generate", "--check");
    expect(stale.stderr).toContain(
      "flowgen: generated is stale: 1 file differs from the specs. Run flowgen generate",
    );
  });
});

describe("where to report a bug", () => {
  it("package.json names the repository and the issue tracker, and an internal error points there", async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      repository?: { url?: string };
      bugs?: { url?: string };
    };
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(manifest.bugs?.url).toMatch(/^https:\/\/.+\/issues$/);
    const report = describeInternalError(new Error("boom"));
    expect(report).toContain(`please report it at ${manifest.bugs?.url} with this output`);
    expect(report).toContain("Error: boom\n    at ");
  });
});
