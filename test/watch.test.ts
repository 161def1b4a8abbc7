import { readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { main } from "../src/cli.js";
import { watch, type WatchRun } from "../src/index.js";
import { tempProject } from "./helpers/temp-dir.js";

const spec = (field: string) => ({
  input: { type: "object", properties: { [field]: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
});

/** Runs as they come, and a bounded wait for the next one. */
function runRecorder() {
  const runs: WatchRun[] = [];
  const waiters: (() => void)[] = [];
  return {
    runs,
    onRun: (run: WatchRun) => {
      runs.push(run);
      waiters.splice(0).forEach((wake) => wake());
    },
    async next(count: number): Promise<WatchRun> {
      const deadline = Date.now() + 15_000;
      while (runs.length < count) {
        if (Date.now() > deadline) throw new Error(`waited 15 s for run ${count}; saw ${runs.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      return runs[count - 1] as WatchRun;
    },
  };
}

describe("generate --watch", () => {
  it("regenerates on edits, replace-style saves, new and deleted files, once per burst, and keeps going after a broken spec", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": spec("question") });
    const recorder = runRecorder();
    const watcher = await watch({ cwd: dir, onRun: recorder.onRun, debounceMs: 50 });
    if (!("close" in watcher)) throw new Error(JSON.stringify(watcher.issues));
    onTestFinished(() => watcher.close());
    const first = await recorder.next(1);
    expect(first.result.ok && first.result.diff.added.length).toBe(5);
    expect(first.changed).toEqual([]);

    const qa = path.join(dir, "specs/@acme/qa.json");
    // An editor's safe write: a new file renamed over the old one (sed -i does the same).
    await writeFile(`${qa}.tmp`, JSON.stringify(spec("q2")));
    await rename(`${qa}.tmp`, qa);
    const replaced = await recorder.next(2);
    expect(replaced.result.ok && replaced.result.diff.changed).toContain("@acme/qa.types.ts");
    // The file is still watched after it was replaced.
    await writeFile(qa, JSON.stringify(spec("q3")));
    const edited = await recorder.next(3);
    expect(edited.changed).toEqual(["specs/@acme/qa.json"]);
    expect(edited.result.ok && edited.result.diff.changed).toContain("@acme/qa.types.ts");

    // A burst of writes to two new files: one run.
    for (const field of ["a", "b", "c"]) await writeFile(path.join(dir, "specs/@acme/new.json"), JSON.stringify(spec(field)));
    await writeFile(path.join(dir, "specs/@acme/other.json"), JSON.stringify(spec("x")));
    const added = await recorder.next(4);
    expect(added.result.ok && added.result.diff.added).toEqual(["@acme/new.ts", "@acme/new.types.ts", "@acme/other.ts", "@acme/other.types.ts"]);

    await writeFile(path.join(dir, "specs/@acme/other.json"), "{ broken");
    const broken = await recorder.next(5);
    expect(broken.result.ok).toBe(false);
    await rm(path.join(dir, "specs/@acme/other.json"));
    const removed = await recorder.next(6);
    expect(removed.result.ok && removed.result.diff.removed).toEqual(["@acme/other.ts", "@acme/other.types.ts"]);
    expect((await readdir(path.join(dir, "generated/@acme"))).sort()).toEqual(["new.ts", "new.types.ts", "qa.ts", "qa.types.ts"]);
    // Nothing else ran: every change above made exactly one run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(recorder.runs).toHaveLength(6);
  });

  it("prints one line per run and stops on the signal", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": spec("question") });
    const out: string[] = [];
    const err: string[] = [];
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const running = main(["generate", "--watch"], { cwd: dir, io: { out: (line) => out.push(line), err: (line) => err.push(line) }, stopped: () => stopped });
    for (let i = 0; out.length < 1 && i < 150; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await writeFile(path.join(dir, "specs/@acme/qa.json"), JSON.stringify(spec("changed")));
    for (let i = 0; out.length < 2 && i < 150; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    stop("SIGINT");
    expect(await running).toBe(0);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d flowgen: 1 flows → generated: 5 added, 0 changed, 0 removed, 0 unchanged \(\d+\.\d\ds\)$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d flowgen: 1 flows → generated: 0 added, 2 changed, 0 removed, 3 unchanged \(\d+\.\d\ds\) after specs\/@acme\/qa\.json$/);
    expect(err).toEqual(["flowgen: watching the specs and the config file; Ctrl-C stops.", "flowgen: SIGINT: stopped watching."]);
  });
});
