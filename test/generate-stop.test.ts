import { spawn } from "node:child_process";
import { watch } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { main } from "../src/cli.js";
import { lockOutput, LOCK_SUFFIX } from "../src/write/output-lock.js";
import { WRITING_MARKER } from "../src/write/write-output.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const BIN = path.join(REPO_ROOT, "bin/flowgen.js");
const QA = {
  input: { type: "object", properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
};

function project(): Promise<string> {
  return tempProject({
    "package.json": { name: "p", private: true, dependencies: { "openapi-fetch": "*" } },
    "specs/@acme/qa.json": QA,
    "specs/@acme/search.json": QA,
  });
}

/**
 * What is beside the specs after a run: the output folder, and anything a run left. The render
 * cache (in node_modules) is saved whole once rendering is done, before the write: not counted.
 */
async function namesBeside(dir: string): Promise<string[]> {
  const project = new Set(["specs", "package.json", "node_modules"]);
  return (await readdir(dir)).filter((name) => !project.has(name)).sort();
}

/** `flowgen generate …` in-process, told to stop (as by `signal`) as soon as it starts listening. */
async function stoppedCli(dir: string, signal: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["generate", ...args], {
    cwd: dir,
    io: {
      out: (line) => void (stdout += `${line}\n`),
      err: (line) => void (stderr += `${line}\n`),
    },
    stopped: () => Promise.resolve(signal),
  });
  return { code, stdout, stderr };
}

describe("generate told to stop (Ctrl-C, SIGTERM)", () => {
  it("while rendering: the call rejects with the signal's reason, and nothing is written or left", async () => {
    const dir = await project();
    const stop = new AbortController();
    const reason = new Error("SIGINT");
    const run = generate({
      cwd: dir,
      config: false,
      signal: stop.signal,
      onProgress: {
        stageStarted: (stage) => void (stage === "types" && stop.abort(reason)),
        produced: () => undefined,
      },
    });
    await expect(run).rejects.toBe(reason);
    expect(await namesBeside(dir)).toEqual([]);
  });

  it("the CLI exits as a signal would end it (130, 143) with a line saying nothing was written", async () => {
    const dir = await project();
    const interrupted = await stoppedCli(dir, "SIGINT");
    expect(interrupted).toEqual({
      code: 130,
      stdout: "",
      stderr: "flowgen: SIGINT: stopped; the output folder was left as it was.\n",
    });
    const terminated = await stoppedCli(dir, "SIGTERM", "--json", "--no-cache");
    expect(terminated.code).toBe(143);
    expect(JSON.parse(terminated.stdout)).toMatchObject({ exitCode: 143, stoppedBy: "SIGTERM" });
    expect(await namesBeside(dir)).toEqual([]);
  });

  it("after a run killed while replacing files (kill -9): --check says so, and generate finishes the job", async () => {
    const dir = await project();
    expect((await generate({ cwd: dir })).ok).toBe(true);
    // What a kill leaves when it comes between the marker and its removal.
    await writeFile(path.join(dir, "generated", WRITING_MARKER), "");
    const checked = await runCli(dir, "generate", "--check");
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      "flowgen: a flowgen run was stopped (killed, or the machine went down) while it replaced files in generated; flowgen generate finishes the job and removes .flowgen-writing.",
    );
    expect((await runCli(dir, "generate")).code).toBe(0);
    expect((await runCli(dir, "generate", "--check")).code).toBe(0);
  });

  it("as a process, sent SIGINT while it waits for another run's lock: exits 130, writing and leaving nothing", async () => {
    const dir = await project();
    const generated = path.join(dir, "generated");
    // This process holds the lock, so the run is certain to be waiting when the signal comes.
    const release = await lockOutput(generated);
    try {
      const child = spawn(process.execPath, [BIN, "generate"], { cwd: dir });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      // Each try at the lock makes a folder named for the run (`generated.flowgen-lock-<pid>-…`).
      await waitForEntry(dir, `generated${LOCK_SUFFIX}-${child.pid}-`, exited);
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(stderr).toBe("flowgen: SIGINT: stopped; the output folder was left as it was.\n");
      expect(await namesBeside(dir)).toEqual([`generated${LOCK_SUFFIX}`]);
    } finally {
      await release();
    }
  });
});

/**
 * Resolves once an entry whose name starts with `prefix` appears in `dir` (it may be gone again at
 * once: the watcher hears it all the same); rejects if the process ends first.
 */
async function waitForEntry(dir: string, prefix: string, exited: Promise<unknown>): Promise<void> {
  const watcher = watch(dir);
  try {
    const seen = new Promise<void>((resolve) =>
      watcher.on("change", (_event, name) => {
        if (String(name).startsWith(prefix)) resolve();
      }),
    );
    const ended = exited.then(() => {
      throw new Error(`flowgen ended before ${prefix}… appeared`);
    });
    await Promise.race([seen, ended]);
  } finally {
    watcher.close();
  }
}
