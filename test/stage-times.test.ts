import { cp } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createStageTimes, STAGES } from "../src/stage-times.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stage names `--verbose` printed, in order. */
function stagesOf(stderr: string): (string | undefined)[] {
  return stderr
    .trimEnd()
    .split("\n")
    .map((line) => /^flowgen: (.+?) +(\d+\.\d{3})s$/.exec(line)?.[1]);
}

describe("stage times", () => {
  it("count overlapping work of one stage once, and list stages in pipeline order", async () => {
    // Time is moved by the test (fake timers and performance.now), never waited for.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const times = createStageTimes();
      const first = times.measure("format", () => sleep(60));
      await vi.advanceTimersByTimeAsync(20);
      const second = times.measure("format", () => sleep(60));
      await vi.advanceTimersByTimeAsync(60);
      await Promise.all([first, second]);
      expect(times.measure("model", () => 42)).toBe(42);
      // Two 60 ms works, the second started 20 ms into the first: 80 ms of format time, not 120.
      expect(times.totals()).toEqual([
        ["model", 0],
        ["format", 80],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("show, once a stage's last work ends, the stage of the latest work still running", async () => {
    const heard: string[] = [];
    const times = createStageTimes({
      stageStarted: (stage) => heard.push(stage),
      produced: () => {},
    });
    let finish = () => {};
    const types = times.measure("types", () => new Promise<void>((resolve) => (finish = resolve)));
    // A check made while the types render: the line goes back to rendering when it is done.
    times.measure("checks", () => undefined);
    finish();
    await types;
    // Nothing else runs once the types are done: the line stays as it is.
    times.measure("write", () => undefined);
    expect(heard).toEqual(["types", "checks", "types", "write"]);
  });

  it("--verbose prints each stage that ran on stderr, and the one-line summary stays on stdout", async () => {
    const dir = await tempProject({});
    await cp(path.join(REPO_ROOT, "specs"), path.join(dir, "specs"), { recursive: true });
    const run = await runCli(dir, "generate", "--verbose", "--no-cache");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^flowgen: 5 flows → generated: \d+ added, 0 changed, 0 removed, 0 unchanged \(\d+\.\d\ds\)\n$/,
    );
    const stages = stagesOf(run.stderr);
    expect(stages).toEqual([
      "spec read",
      "checks",
      "model",
      "compile",
      "types",
      "emit",
      "format",
      "write",
    ]);
    expect(STAGES).toEqual(expect.arrayContaining(stages));

    const check = await runCli(dir, "generate", "--check", "--verbose", "--cache-dir", ".fresh");
    expect(check.stdout).toMatch(/is up to date/);
    // A fresh clone's check proves the output by rendering it...
    expect(stagesOf(check.stderr)).toEqual(stages);
    // ...unless told to take the manifest's word: then nothing is rendered.
    const trusting = await runCli(dir, "generate", "--check", "--verbose", "--trust-manifest");
    expect(trusting.stdout).toMatch(/is up to date/);
    expect(stagesOf(trusting.stderr)).toEqual(["spec read", "manifest"]);
  });
});
