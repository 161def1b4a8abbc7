import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli.js";
import { createProgress } from "../src/cli/progress.js";
import { choosePaint, type Terminal } from "../src/cli/terminal.js";
import type { GenerateSummary } from "../src/cli/generate-summary.js";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { cachedProject } from "./helpers/render-cache.js";
import { tempProject } from "./helpers/temp-dir.js";

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string", example: 42 } } },
};
const RUNTIME_DEPENDENCY = { name: "app", dependencies: { "openapi-fetch": "^0.17.0" } };

/** A stand-in for stderr: what was written to it, and whether it says it is a terminal. */
function fakeTerminal(isTTY: boolean): Terminal & { readonly written: string[] } {
  const written: string[] = [];
  return { isTTY, columns: 60, written, write: (text) => void written.push(text) };
}

const PLAIN = choosePaint(undefined, {});
const CLEAR = "\r\u001b[2K";

describe("the progress line", () => {
  let now = 0;
  beforeEach(() => {
    now = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("shows nothing for a run that ends within a second", () => {
    const terminal = fakeTerminal(true);
    const progress = createProgress(terminal, { paint: PLAIN, now: () => now });
    now = 200;
    progress.stageStarted("checks");
    now = 999;
    progress.produced(5, 10);
    vi.advanceTimersByTime(2000);
    progress.finish();
    expect(terminal.written).toEqual([]);
  });

  it("after a second, says the stage and the files done, redraws in place at most every 100 ms, and clears itself", () => {
    const terminal = fakeTerminal(true);
    const progress = createProgress(terminal, { paint: PLAIN, now: () => now });
    progress.stageStarted("spec read");
    now = 1000;
    progress.stageStarted("types");
    now = 1050;
    progress.produced(10, 200);
    now = 1150;
    progress.produced(60, 200);
    now = 1160;
    progress.produced(61, 200);
    now = 1300;
    progress.stageStarted("write");
    progress.finish();
    expect(terminal.written).toEqual([
      `${CLEAR}flowgen: rendering`,
      `${CLEAR}flowgen: rendering 60/200 files`,
      `${CLEAR}flowgen: writing`,
      CLEAR,
    ]);
  });

  it("is drawn by its timer during a long stage that reports nothing, cut to the terminal's width", () => {
    const terminal = fakeTerminal(true);
    const progress = createProgress(terminal, { paint: PLAIN, now: () => now });
    progress.stageStarted("compile");
    now = 1500;
    expect(terminal.written).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(terminal.written).toEqual([`${CLEAR}flowgen: compiling the OpenAPI document`]);
    const narrow = { ...fakeTerminal(true), columns: 20 };
    let later = 0;
    const cut = createProgress(narrow, { paint: PLAIN, now: () => later });
    later = 5000;
    cut.stageStarted("compile");
    expect(narrow.written).toEqual([`${CLEAR}flowgen: compiling…`]);
    progress.finish();
    cut.finish();
  });
});

describe("flowgen generate on a terminal", () => {
  /** A clock that moves 400 ms each time it is read: every run takes longer than a second. */
  function slowClock(): () => number {
    let time = 0;
    return () => (time += 400);
  }

  async function generateOn(
    terminal: Terminal,
    env: Record<string, string>,
    ...flags: string[]
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const dir = await cachedProject({
      "package.json": RUNTIME_DEPENDENCY,
      "specs/@acme/qa.json": qa,
    });
    let stdout = "";
    let stderr = "";
    const code = await main(["generate", ...flags], {
      cwd: dir,
      io: {
        out: (line) => void (stdout += `${line}\n`),
        err: (line) => void (stderr += `${line}\n`),
      },
      terminal,
      env,
      now: slowClock(),
    });
    return { code, stdout, stderr };
  }

  it("shows its progress on stderr, and clears the line before the result", async () => {
    const terminal = fakeTerminal(true);
    const run = await generateOn(terminal, {});
    expect(run.code).toBe(0);
    expect(terminal.written.length).toBeGreaterThan(1);
    expect(terminal.written[0]?.startsWith(`${CLEAR}\u001b[2mflowgen: `)).toBe(true);
    expect(terminal.written.at(-1)).toBe(CLEAR);
    expect(run.stdout).toMatch(/^flowgen: 1 flow → generated: /);
  });

  it.each<[string, boolean, Record<string, string>, string[]]>([
    ["stderr is not a terminal", false, {}, []],
    ["under CI", true, { CI: "true" }, []],
    ["with --quiet", true, {}, ["--quiet"]],
    ["with --json", true, {}, ["--json"]],
  ])("shows none when %s", async (_when, isTTY, env, flags) => {
    const terminal = fakeTerminal(isTTY);
    const run = await generateOn(terminal, env, ...flags);
    expect(run.code).toBe(0);
    expect(terminal.written).toEqual([]);
  });

  it("--quiet prints no warnings and no success line", async () => {
    const run = await generateOn(fakeTerminal(false), {}, "--quiet");
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("--quiet prints no contract report for compatible changes either", async () => {
    const dir = await cachedProject({
      "package.json": RUNTIME_DEPENDENCY,
      "specs/@acme/qa.json": qa,
    });
    expect((await flowgen(dir, "generate")).code).toBe(0);
    await writeFile(path.join(dir, "specs/@acme/qa2.json"), JSON.stringify(qa));
    const loud = await flowgen(dir, "generate");
    expect(loud.stdout).toContain("@acme/qa2: new flow (compatible)");
    await writeFile(path.join(dir, "specs/@acme/qa3.json"), JSON.stringify(qa));
    expect(await flowgen(dir, "generate", "--quiet")).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("colours warnings and problem codes only on a terminal, and never with NO_COLOR", async () => {
    const coloured = await generateOn(fakeTerminal(true), {});
    expect(coloured.stderr.startsWith("\u001b[33mwarning\u001b[39m: specs/@acme/qa.json")).toBe(
      true,
    );
    for (const [isTTY, env] of [
      [false, {}],
      [true, { NO_COLOR: "1" }],
    ] as const) {
      const plain = await generateOn(fakeTerminal(isTTY), env);
      expect(plain.stderr).toMatch(/^warning: specs\/@acme\/qa\.json/);
      expect(plain.stderr).not.toContain("\u001b[");
    }
    const dir = await tempProject({
      "specs/@acme/qa.json": { input: { type: "string" }, output: { type: "object" } },
    });
    let stderr = "";
    await main(["generate"], {
      cwd: dir,
      io: { out: () => undefined, err: (line) => void (stderr += `${line}\n`) },
      terminal: fakeTerminal(true),
      env: {},
    });
    expect(stderr).toContain(
      "\u001b[31m[not-an-object-schema]\u001b[39m flowgen-cli/docs/errors.md#not-an-object-schema\n",
    );
  });
});

describe("flowgen generate --json", () => {
  function parse(stdout: string): GenerateSummary {
    return JSON.parse(stdout) as GenerateSummary;
  }

  it("prints one summary and nothing else, for generate and --check, up to date or stale", async () => {
    const dir = await cachedProject({
      "package.json": RUNTIME_DEPENDENCY,
      "specs/@acme/qa.json": qa,
    });
    const generated = await flowgen(dir, "generate", "--json");
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    const summary = parse(generated.stdout);
    expect(summary).toMatchObject({
      command: "generate",
      check: false,
      exitCode: 0,
      out: "generated",
      flows: 1,
      problems: [],
      warnings: [
        {
          code: "invalid-schema-example",
          file: "specs/@acme/qa.json",
          pointer: "/output/properties/answer/example",
        },
      ],
    });
    expect(summary.files?.added).toContain("@acme/qa.ts");
    expect(summary.files?.unchanged).toBe(0);
    expect(typeof summary.seconds).toBe("number");

    const upToDate = parse((await flowgen(dir, "generate", "--check", "--json")).stdout);
    expect(upToDate).toMatchObject({ check: true, exitCode: 0, upToDate: true });
    expect(upToDate.files).toMatchObject({ added: [], changed: [], removed: [] });

    await writeFile(path.join(dir, "generated/@acme/qa.ts"), "// edited\n");
    const stale = await flowgen(dir, "generate", "--check", "--json");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe("");
    expect(parse(stale.stdout)).toMatchObject({
      exitCode: 1,
      upToDate: false,
      files: { added: [], changed: ["@acme/qa.ts"], removed: [] },
    });
  });

  it("lists the problems, with the exit code", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": { input: { type: "string" }, output: { type: "object" } },
    });
    const run = await flowgen(dir, "generate", "--json");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("");
    expect(parse(run.stdout)).toMatchObject({
      exitCode: 2,
      out: "generated",
      problems: [{ code: "not-an-object-schema", file: "specs/@acme/qa.json", pointer: "/input" }],
    });
    expect(parse(run.stdout).files).toBeUndefined();
    expect((await flowgen(dir, "generate", "--json", "--watch")).code).toBe(2);
  });

  it("lists a usage mistake as its problem too, with nothing on stderr and nothing run", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    const mistyped = await flowgen(dir, "generate", "--check", "--json", "--chek");
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toBe("");
    expect(parse(mistyped.stdout)).toEqual({
      command: "generate",
      check: true,
      exitCode: 2,
      problems: [
        {
          code: "invalid-option",
          file: "flowgen",
          message: "Unknown argument: chek\n--chek: did you mean --check?",
        },
      ],
      warnings: [],
      seconds: 0,
    });
    const configFirst = await flowgen(dir, "--config", "x.json", "generate", "--json", "--chek");
    expect(configFirst).toMatchObject({ code: 2, stderr: "" });
    // Found before yargs reads the line, and after: each the same way.
    for (const argv of [
      ["--json", "-check"],
      ["--json", "--out", "a", "--out", "b"],
      ["--json", "--watch"],
    ]) {
      const run = await flowgen(dir, "generate", ...argv);
      expect(run).toMatchObject({ code: 2, stderr: "" });
      expect(parse(run.stdout)).toMatchObject({
        check: false,
        exitCode: 2,
        problems: [{ code: "invalid-option", file: "flowgen" }],
      });
    }
    expect(parse((await flowgen(dir, "generate", "--json", "-check")).stdout).problems).toEqual([
      expect.objectContaining({ message: "-check is not an option; did you mean --check?" }),
    ]);
  });
});

describe("openapi-fetch as a dependency of the project", () => {
  const spec = { "specs/@acme/qa.json": { input: { type: "object" }, output: { type: "object" } } };

  it.each<[string, Record<string, unknown>, string]>([
    [
      "a dev dependency only",
      { "package.json": { devDependencies: { "openapi-fetch": "^0.17.0" } } },
      "openapi-fetch is a dev dependency, but the generated clients import it at run time: an install for production (npm prune --omit=dev, npm ci --omit=dev) leaves it out and the clients fail with ERR_MODULE_NOT_FOUND. Make it a dependency: npm install openapi-fetch",
    ],
    [
      "missing, in a pnpm project",
      { "package.json": { name: "app" }, "pnpm-lock.yaml": "lockfileVersion: '9.0'\n" },
      "Add it: pnpm add openapi-fetch",
    ],
    [
      "missing, in a yarn project",
      { "package.json": { name: "app" }, "yarn.lock": "" },
      "Add it: yarn add openapi-fetch",
    ],
  ])("warns when it is %s, naming the command that fixes it", async (_what, files, message) => {
    const dir = await cachedProject({ ...spec, ...files });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: package\.json #\/dependencies: openapi-fetch /);
    expect(run.stderr).toContain(
      `${message} [missing-dependency] flowgen-cli/docs/errors.md#missing-dependency\n`,
    );
  });

  it.each<[string, Record<string, unknown>]>([
    ["a dependency", { dependencies: { "openapi-fetch": "0.17.0" } }],
    ["a peer dependency", { peerDependencies: { "openapi-fetch": ">=0.17" } }],
  ])("says nothing when it is %s", async (_what, manifest) => {
    const dir = await cachedProject({ ...spec, "package.json": manifest });
    expect(await flowgen(dir, "generate")).toMatchObject({ code: 0, stderr: "" });
  });

  it("follows the rule's severity: off says nothing, error stops before anything is written", async () => {
    const off = await cachedProject({
      ...spec,
      "package.json": { name: "app" },
      "flowgen.config.json": { rules: { "missing-dependency": "off" } },
    });
    expect(await flowgen(off, "generate")).toMatchObject({ code: 0, stderr: "" });
    const error = await tempProject({
      ...spec,
      "package.json": { name: "app" },
      "flowgen.config.json": { rules: { "missing-dependency": "error" } },
    });
    const refused = await flowgen(error, "generate");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "[missing-dependency] flowgen-cli/docs/errors.md#missing-dependency\nflowgen: 1 problem; nothing was written.",
    );
  });
});
