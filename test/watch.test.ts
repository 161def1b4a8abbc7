import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { main } from "../src/cli.js";
import { watch, type WatchRun } from "../src/index.js";
import { cachedProject } from "./helpers/render-cache.js";
import { outputFileCount } from "./helpers/output-files.js";

const spec = (field: string) => ({
  input: { type: "object", properties: { [field]: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
});

/** Runs as they come, and a bounded wait for the first run from `from` on that passes `test`. */
function runRecorder() {
  const runs: WatchRun[] = [];
  return {
    runs,
    onRun: (run: WatchRun) => void runs.push(run),
    async until(from: number, test: (run: WatchRun) => boolean): Promise<WatchRun> {
      for (let i = 0; i < 300; i++) {
        const found = runs.slice(from).find(test);
        if (found !== undefined) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `no matching run in 15 s; runs: ${JSON.stringify(runs.map((run) => ({ changed: run.changed, ok: run.result.ok })))}`,
      );
    },
  };
}

/** `watch` on `dir`, stopped when the test ends; its runs, as they come. */
async function watching(dir: string): Promise<ReturnType<typeof runRecorder>> {
  const recorder = runRecorder();
  const watcher = await watch({ cwd: dir, onRun: recorder.onRun, debounceMs: 50 });
  if (!("close" in watcher)) throw new Error(JSON.stringify(watcher.issues));
  onTestFinished(() => watcher.close());
  return recorder;
}

const changedFiles = (run: WatchRun) => (run.result.ok ? run.result.diff.changed : []);
const addedFiles = (run: WatchRun) => (run.result.ok ? run.result.diff.added : []);

describe("generate --watch", () => {
  it("regenerates on edits, replace-style saves, new and deleted files, once per burst, and keeps going after a broken spec", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": spec("question") });
    const recorder = await watching(dir);
    const first = await recorder.until(0, () => true);
    expect(addedFiles(first)).toHaveLength(outputFileCount(1));
    expect(first.changed).toEqual([]);

    const qa = path.join(dir, "specs/@acme/qa.json");
    // An editor's safe write: a new file renamed over the old one (sed -i does the same).
    let seen = recorder.runs.length;
    await writeFile(`${qa}.tmp`, JSON.stringify(spec("q2")));
    await rename(`${qa}.tmp`, qa);
    await recorder.until(seen, (run) => changedFiles(run).includes("@acme/qa.types.ts"));
    // The file is still watched after it was replaced.
    seen = recorder.runs.length;
    await writeFile(qa, JSON.stringify(spec("q3")));
    const edited = await recorder.until(seen, (run) =>
      changedFiles(run).includes("@acme/qa.types.ts"),
    );
    expect(edited.changed).toEqual(["specs/@acme/qa.json"]);

    // A burst of writes to two new files: fewer runs than writes, and the last one has both flows.
    seen = recorder.runs.length;
    for (const field of ["a", "b", "c"])
      await writeFile(path.join(dir, "specs/@acme/new.json"), JSON.stringify(spec(field)));
    await writeFile(path.join(dir, "specs/@acme/other.json"), JSON.stringify(spec("x")));
    await recorder.until(seen, (run) => run.result.ok && run.result.flowCount === 3);
    expect(recorder.runs.length - seen).toBeLessThan(4);

    seen = recorder.runs.length;
    await writeFile(path.join(dir, "specs/@acme/other.json"), "{ broken");
    await recorder.until(seen, (run) => !run.result.ok);
    seen = recorder.runs.length;
    await rm(path.join(dir, "specs/@acme/other.json"));
    const removed = await recorder.until(seen, (run) => run.result.ok);
    expect(removed.result.ok && removed.result.diff.removed).toEqual([
      "@acme/other.ts",
      "@acme/other.types.ts",
    ]);
    expect((await readdir(path.join(dir, "generated/@acme"))).sort()).toEqual([
      "new.ts",
      "new.types.ts",
      "qa.ts",
      "qa.types.ts",
    ]);
  });

  it("keeps watching the specs folder after it is removed and made again", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": spec("question") });
    const recorder = await watching(dir);
    await recorder.until(0, () => true);
    let seen = recorder.runs.length;
    await rm(path.join(dir, "specs"), { recursive: true });
    await recorder.until(seen, (run) => !run.result.ok);
    seen = recorder.runs.length;
    await mkdir(path.join(dir, "specs/@acme"), { recursive: true });
    await writeFile(path.join(dir, "specs/@acme/sum.json"), JSON.stringify(spec("a")));
    await recorder.until(seen, (run) => run.result.ok && run.result.flowCount === 1);
    seen = recorder.runs.length;
    await writeFile(path.join(dir, "specs/@acme/sum.json"), JSON.stringify(spec("b")));
    const edited = await recorder.until(seen, (run) => changedFiles(run).length > 0);
    expect(edited.changed).toContain("specs/@acme/sum.json");
  });

  it("with --quiet prints only problems, and with --verbose each run's stages", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": spec("question") });
    const watchWith = (flag: string) => {
      const lines = { out: [] as string[], err: [] as string[] };
      let stop: (signal: string) => void = () => undefined;
      const stopped = new Promise<string>((resolve) => (stop = resolve));
      const running = main(["generate", "--watch", flag], {
        cwd: dir,
        io: { out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) },
        stopped: () => stopped,
      });
      return { lines, stop: () => (stop("SIGINT"), running) };
    };
    const until = async (done: () => boolean) => {
      for (let i = 0; !done() && i < 150; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
    };

    const verbose = watchWith("--verbose");
    await until(() => verbose.lines.out.length > 0);
    expect(await verbose.stop()).toBe(0);
    expect(verbose.lines.err).toContainEqual(
      expect.stringMatching(/^flowgen: spec read +\d+\.\d{3}s$/),
    );

    const quiet = watchWith("--quiet");
    const problems = () => quiet.lines.err.filter((line) => line.includes("waiting for changes"));
    await until(() => quiet.lines.err.length > 0);
    await writeFile(path.join(dir, "specs/@acme/qa.json"), "{ not json");
    await until(() => problems().length > 0);
    expect(await quiet.stop()).toBe(0);
    expect(quiet.lines.out).toEqual([]);
    expect(problems()).toHaveLength(1);
    expect(quiet.lines.err.join("\n")).toContain("[syntax-error]");
  });

  it("prints one line per run and stops on the signal", async () => {
    const dir = await cachedProject({ "specs/@acme/qa.json": spec("question") });
    const out: string[] = [];
    const err: string[] = [];
    let stop: (signal: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const running = main(["generate", "--watch"], {
      cwd: dir,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      stopped: () => stopped,
    });
    for (let i = 0; out.length < 1 && i < 150; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await writeFile(path.join(dir, "specs/@acme/qa.json"), JSON.stringify(spec("changed")));
    for (let i = 0; out.length < 2 && i < 150; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    stop("SIGINT");
    expect(await running).toBe(0);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d flowgen: 1 flow → generated: ${outputFileCount(1)} added, 0 changed, 0 removed, 0 unchanged \\(\\d+\\.\\d\\ds\\)$`,
      ),
    );
    expect(out[1]).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d flowgen: 1 flow → generated: 0 added, 3 changed, 0 removed, ${outputFileCount(1) - 3} unchanged \\(\\d+\\.\\d\\ds\\) after specs/@acme/qa\\.json$`,
      ),
    );
    expect(err[0]).toBe("flowgen: watching the specs and the config file; Ctrl-C stops.");
    expect(err.at(-1)).toBe("flowgen: SIGINT: stopped watching.");
  });
});
