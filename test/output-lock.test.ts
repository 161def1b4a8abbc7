import { spawn } from "node:child_process";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { banner } from "../src/emit/banner.js";
import { formatIssue } from "../src/issues.js";
import type { OutputFile } from "../src/output-file.js";
import { writeOutput } from "../src/write/write-output.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const INDEX = `${banner("the specs")}\nexport {};\n`;
const BASE_URLS = ["https://a.example", "https://b.example", "https://c.example"] as const;

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

async function repoSpecsProject(): Promise<string> {
  const dir = await tempProject({ "package.json": { name: "consumer", private: true } });
  await cp(path.join(REPO_ROOT, "specs"), path.join(dir, "specs"), { recursive: true });
  return dir;
}

async function generateOk(dir: string, baseUrl: string, out = "generated"): Promise<void> {
  // A cache per base URL: each run keeps only the entries it used.
  const cacheDir = `.cache-${new URL(baseUrl).hostname}`;
  const result = await generate({ cwd: dir, config: false, baseUrl, out, cacheDir });
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
}

describe("one run at a time per output folder", () => {
  it("10 concurrent pairs of runs always leave exactly one run's tree, and no lock behind", async () => {
    const dir = await repoSpecsProject();
    const [a, b, c] = BASE_URLS;
    // Each run's whole tree, made alone.
    await generateOk(dir, a, "tree-a");
    await generateOk(dir, b, "tree-b");
    const trees = [
      await readTree(path.join(dir, "tree-a")),
      await readTree(path.join(dir, "tree-b")),
    ];
    for (let pair = 0; pair < 10; pair++) {
      // Start from a third tree, so that both runs have files to replace.
      await generateOk(dir, c);
      await Promise.all([generateOk(dir, a), generateOk(dir, b)]);
      expect(trees).toContainEqual(await readTree(path.join(dir, "generated")));
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
    const startWriter = (name: string) => {
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { existsSync, readFileSync } from "node:fs";
           const { writeOutput } = await import(${JSON.stringify(writer)});
           const files = JSON.parse(readFileSync(${JSON.stringify(path.join(dir, `${name}.json`))}, "utf8"));
           console.log("ready");
           while (!existsSync(${JSON.stringify(path.join(dir, "go"))})) await new Promise((r) => setTimeout(r, 1));
           await writeOutput(${JSON.stringify(out)}, files);`,
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      return {
        ready: new Promise<void>((resolve) => child.stdout.once("data", () => resolve())),
        exit: new Promise<number | null>((resolve) => child.on("exit", resolve)),
      };
    };
    const expected = [asTree(trees.a), asTree(trees.b)];
    for (let pair = 0; pair < 10; pair++) {
      await rm(path.join(dir, "go"), { force: true });
      await writeOutput(out, [{ path: "index.ts", content: INDEX }, ...base]);
      const runs = [startWriter("a"), startWriter("b")];
      await Promise.all(runs.map((run) => run.ready));
      await writeFile(path.join(dir, "go"), "");
      expect(await Promise.all(runs.map((run) => run.exit))).toEqual([0, 0]);
      expect(expected).toContainEqual(await readTree(out));
    }
  });

  it("a run exits 2 naming the pid of a live holder, and takes over the lock of a dead one", async () => {
    const dir = await repoSpecsProject();
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
