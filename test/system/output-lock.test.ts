import { spawn } from "node:child_process";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { generate } from "../../src/api/generate.js";
import { banner } from "../../src/emit/banner.js";
import { formatIssue } from "../../src/issues.js";
import type { OutputFile } from "../../src/output-file.js";
import { writeOutput } from "../../src/write/write-output.js";
import { cachedProject } from "../helpers/render-cache.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";

const INDEX = `${banner("the specs")}\nexport {};\n`;
/**
 * What three runs leave out of the repo's specs, each generating from a folder of its own. Any two
 * differ in more than a quarter of their files, so each run replaces the whole tree.
 */
const LEFT_OUT = {
  a: ["@acme/qa.json", "@globex/search.json"],
  b: ["@acme/invoice.json", "@acme/org-chart.yaml"],
  c: ["@acme/search.json", "@globex/search.json"],
} as const;

async function readTree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const tree: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const full = path.join(entry.parentPath, entry.name);
    tree[path.relative(dir, full)] = await readFile(full, "utf8");
  }
  return tree;
}

function asTree(files: readonly OutputFile[]): Record<string, string> {
  return Object.fromEntries(
    files.map((file) => [file.path.split("/").join(path.sep), file.content]),
  );
}

/** A project with a folder of specs per run, `specs-a` to `specs-c`. */
async function runsProject(): Promise<string> {
  const dir = await tempProject({ "package.json": { name: "consumer", private: true } });
  for (const [name, leftOut] of Object.entries(LEFT_OUT)) {
    const specs = path.join(dir, `specs-${name}`);
    await cp(path.join(REPO_ROOT, "specs"), specs, { recursive: true });
    for (const file of leftOut) await rm(path.join(specs, file));
  }
  return dir;
}

type RunName = keyof typeof LEFT_OUT;

/** A run of `specs-<name>`, with a cache of its own: each run keeps only the entries it used. */
async function generateOk(dir: string, name: RunName, out = "generated"): Promise<void> {
  const cacheDir = `.cache-${name}`;
  const result = await generate({ cwd: dir, config: false, specs: `specs-${name}`, out, cacheDir });
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
}

describe("one run at a time per output folder", () => {
  it("10 concurrent pairs of runs always leave exactly one run's tree, and no lock behind", async () => {
    const dir = await runsProject();
    // Each run's whole tree, made alone. The runs share the runtime and most flows: the first
    // run's cache starts the others'.
    await generateOk(dir, "a", "tree-a");
    await cp(path.join(dir, ".cache-a"), path.join(dir, ".cache-b"), { recursive: true });
    await cp(path.join(dir, ".cache-a"), path.join(dir, ".cache-c"), { recursive: true });
    await generateOk(dir, "b", "tree-b");
    await generateOk(dir, "c", "tree-c");
    const trees = [
      await readTree(path.join(dir, "tree-a")),
      await readTree(path.join(dir, "tree-b")),
    ];
    const out = path.join(dir, "generated");
    for (let pair = 0; pair < 10; pair++) {
      // Start from a third run's tree, so that both runs have files to replace.
      await rm(out, { recursive: true, force: true });
      await cp(path.join(dir, "tree-c"), out, { recursive: true });
      await Promise.all([generateOk(dir, "a"), generateOk(dir, "b")]);
      expect(trees).toContainEqual(await readTree(out));
    }
    expect((await readdir(dir)).filter((name) => name.startsWith("generated."))).toEqual([]);
  });

  it("10 pairs of processes writing at once each leave one run's tree", async () => {
    const dir = await tempProject({ "package.json": { name: "consumer", private: true } });
    const out = path.join(dir, "generated");
    // Large enough that each run replaces files one by one (in place), where two runs would interleave.
    const base = Array.from({ length: 400 }, (_, i) => ({
      path: `@org${i % 7}/f${i}.ts`,
      content: `// base ${i}\n`,
    }));
    const variant = (name: string, from: number) => [
      { path: "index.ts", content: INDEX },
      ...base.map((file, i) =>
        i >= from && i < from + 40 ? { ...file, content: `// ${name} ${i}\n` } : file,
      ),
    ];
    const trees = { a: variant("a", 0), b: variant("b", 20) };
    await writeFile(path.join(dir, "a.json"), JSON.stringify(trees.a));
    await writeFile(path.join(dir, "b.json"), JSON.stringify(trees.b));
    const writer = pathToFileURL(path.join(REPO_ROOT, "dist/write/write-output.js")).href;
    // One process per tree, alive for all the pairs: each writes its tree whenever it reads a line.
    const startWriter = (name: string) => {
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { readFileSync } from "node:fs";
           import { createInterface } from "node:readline";
           const { writeOutput } = await import(${JSON.stringify(writer)});
           const files = JSON.parse(readFileSync(${JSON.stringify(path.join(dir, `${name}.json`))}, "utf8"));
           console.log("ready");
           for await (const _ of createInterface({ input: process.stdin })) {
             await writeOutput(${JSON.stringify(out)}, files);
             console.log("written");
           }`,
        ],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      onTestFinished(() => void child.kill());
      const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const next = async () => (await lines.next()).value as string | undefined;
      return {
        ready: next(),
        /** Starts a write of its tree; resolves to "written" when it is done. */
        write: () => {
          child.stdin.write("go\n");
          return next();
        },
        end: () => {
          child.stdin.end();
          return exit;
        },
      };
    };
    const expected = [asTree(trees.a), asTree(trees.b)];
    const writers = [startWriter("a"), startWriter("b")];
    expect(await Promise.all(writers.map((writer) => writer.ready))).toEqual(["ready", "ready"]);
    for (let pair = 0; pair < 10; pair++) {
      await writeOutput(out, [{ path: "index.ts", content: INDEX }, ...base]);
      // Both told in the same tick: the two writes start together.
      const written = writers.map((writer) => writer.write());
      expect(await Promise.all(written)).toEqual(["written", "written"]);
      expect(expected).toContainEqual(await readTree(out));
    }
    expect(await Promise.all(writers.map((writer) => writer.end()))).toEqual([0, 0]);
  });

  it("a run exits 2 naming the pid of a live holder, and takes over the lock of a dead one", async () => {
    const dir = await cachedProject({
      "package.json": { name: "consumer", private: true },
      "specs/@acme/qa.json": { input: { type: "object" }, output: { type: "object" } },
    });
    const lockModule = pathToFileURL(path.join(REPO_ROOT, "dist/write/output-lock.js")).href;
    // Another process holds the output folder's lock, as a run does while it writes.
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { lockOutput } = await import(${JSON.stringify(lockModule)});
         await lockOutput(${JSON.stringify(path.join(dir, "generated"))});
         console.log("locked");
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));

    const refused = await generate({ cwd: dir, config: false, waitForLock: 0 });
    expect(refused.ok ? [] : refused.issues.map((issue) => [issue.code, issue.message])).toEqual([
      [
        "output-locked",
        `another flowgen run (pid ${holder.pid}) is writing this folder; wait for it to finish, or, if no flowgen runs, remove generated.flowgen-lock`,
      ],
    ]);

    // Killed: the lock stays behind, naming a process that no longer runs.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(await readdir(dir)).toContain("generated.flowgen-lock");
    const result = await generate({ cwd: dir, config: false, waitForLock: 0 });
    expect(result.ok).toBe(true);
    expect(await readdir(dir)).not.toContain("generated.flowgen-lock");
  });
});
