import { cpSync, readdirSync, renameSync, statSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openRenderCache } from "../src/cache/render-cache.js";
import { banner } from "../src/emit/banner.js";
import { hashContent, MANIFEST_PATH } from "../src/manifest/output-manifest.js";
import type { OutputFile } from "../src/output-file.js";
import {
  diffOutput,
  ForeignOutputError,
  recoverOutput,
  writeOutput,
  WRITING_MARKER,
  type WriteStep,
} from "../src/write/write-output.js";
import { LOCK_SUFFIX, lockOutput } from "../src/write/output-lock.js";
import { tempProject, writeFiles } from "./helpers/temp-dir.js";

const INDEX = `${banner("the specs")}\nexport {};\n`;
/** A lock owner's name (pid, process start, random) for a process that no longer runs. */
const DEAD_OWNER = "99999999-1-dead";

/** The names beside the output folder, but for a crashed run's lock, which the next write takes over. */
function namesBeside(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== `generated${LOCK_SUFFIX}`);
}

/**
 * A flowgen-like tree: index.ts plus `count` flow files in subfolders, each saying `version`, and
 * a manifest recording each file's content (unless `extra` brings one).
 */
function tree(count: number, version: string, extra: readonly OutputFile[] = []): OutputFile[] {
  const flows = Array.from({ length: count }, (_, i) => ({
    path: `@org${i % 3}/flow-${i}.ts`,
    content: `// ${version} ${i}\n`,
  }));
  const files = [{ path: "index.ts", content: INDEX }, ...flows, ...extra];
  return files.some((file) => file.path === MANIFEST_PATH) ? files : [...files, manifestOf(files)];
}

/** The manifest of `files`, as flowgen records them: each path with its content's hash. */
function manifestOf(files: readonly OutputFile[]): OutputFile {
  const recorded = Object.fromEntries(
    files.map((file) => [file.path, { inputs: "", output: hashContent(file.content) }]),
  );
  const manifest = { fingerprint: "test", flows: {}, files: recorded };
  return { path: MANIFEST_PATH, content: `${JSON.stringify(manifest, null, 2)}\n` };
}

async function readTree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    );
  const contents = await Promise.all(files.map((file) => readFile(path.join(dir, file), "utf8")));
  return Object.fromEntries(
    files
      .map((file, i): [string, string] => [file, contents[i] ?? ""])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

function asRecord(files: readonly OutputFile[]): Record<string, string> {
  return Object.fromEntries(
    files
      .map((file): [string, string] => [file.path, file.content])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

/**
 * Writes `before`, then `after` while copying the whole project folder at every step: each copy is
 * exactly what a crash (kill -9, power to the process lost) at that instant would leave on disk.
 */
async function crashSnapshots(
  before: readonly OutputFile[],
  after: readonly OutputFile[],
): Promise<{ step: WriteStep; dir: string }[]> {
  const root = await tempProject({});
  const project = path.join(root, "project");
  await mkdir(project);
  if (before.length > 0) await writeOutput(path.join(project, "generated"), before);
  const snapshots: { step: WriteStep; dir: string }[] = [];
  await writeOutput(path.join(project, "generated"), after, {
    onStep: (step) => {
      const dir = path.join(root, `crash-${snapshots.length}`);
      cpSync(project, dir, { recursive: true });
      // The lock stays behind too, naming a process that no longer runs.
      const lock = path.join(dir, `generated${LOCK_SUFFIX}`);
      for (const owner of readdirSync(lock))
        renameSync(path.join(lock, owner), path.join(lock, DEAD_OWNER));
      snapshots.push({ step, dir });
    },
  });
  expect(await readTree(path.join(project, "generated"))).toEqual(asRecord(after));
  expect(readdirSync(project)).toEqual(["generated"]);
  return snapshots;
}

describe("writeOutput: a crash at any step", () => {
  it("swapping the whole tree: the next run finds the old tree or the new one, and no leftovers", async () => {
    const before = tree(6, "old");
    const after = tree(9, "new");
    const snapshots = await crashSnapshots(before, after);
    expect(snapshots.map((snapshot) => snapshot.step)).toEqual([
      "staged",
      "moved-aside",
      "swapped",
    ]);
    for (const { step, dir } of snapshots) {
      const generated = path.join(dir, "generated");
      await recoverOutput(generated);
      const found = await readTree(generated);
      expect([asRecord(before), asRecord(after)], step).toContainEqual(found);
      expect(namesBeside(dir), step).toEqual(["generated"]);
      // ...and a full run from there ends with the new tree, and takes over and releases the lock.
      await writeOutput(generated, after);
      expect(await readTree(generated), step).toEqual(asRecord(after));
      expect(readdirSync(dir), step).toEqual(["generated"]);
    }
  });

  it("a first write: the next run finds no folder or the new one", async () => {
    const after = tree(3, "new");
    for (const { step, dir } of await crashSnapshots([], after)) {
      await recoverOutput(path.join(dir, "generated"));
      const names = namesBeside(dir);
      expect([[], ["generated"]], step).toContainEqual(names);
      if (names.length > 0)
        expect(await readTree(path.join(dir, "generated")), step).toEqual(asRecord(after));
    }
  });

  it("replacing a few files in place: each file is old or new, the folder reads as stale, and the next run repairs it", async () => {
    const before = tree(16, "old", [{ path: "@gone/flow.ts", content: "// removed\n" }]);
    const after = tree(16, "old", [{ path: "@org2/added.ts", content: "// added\n" }]).map(
      (file) => (file.path === "@org1/flow-4.ts" ? { ...file, content: "// new 4\n" } : file),
    );
    const snapshots = await crashSnapshots(before, after);
    expect(snapshots.map((snapshot) => snapshot.step)).toEqual([
      "marked",
      "file-written",
      "file-written",
      "file-removed",
      "file-written",
      "unmarked",
    ]);
    for (const { step, dir } of snapshots) {
      const generated = path.join(dir, "generated");
      const found = await readTree(generated);
      const old = asRecord(before);
      const wanted = asRecord(after);
      for (const [file, content] of Object.entries(found)) {
        if (file === WRITING_MARKER) continue;
        expect([old[file], wanted[file]], `${step}: ${file}`).toContain(content);
      }
      const diff = await diffOutput(generated, after);
      const stale = diff.added.length + diff.changed.length + diff.removed.length > 0;
      expect(stale, step).toBe(step !== "unmarked");
      if (step !== "unmarked") expect(found[WRITING_MARKER], step).toBeDefined();
      await writeOutput(generated, after);
      expect(await readTree(generated), step).toEqual(wanted);
    }
  });
});

describe("writeOutput: writing only what changed", () => {
  it("replaces the manifest last, so that it never describes files not yet written", async () => {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    const manifest = (version: string) => ({
      path: MANIFEST_PATH,
      content: `{"version":"${version}"}\n`,
    });
    await writeOutput(generated, tree(12, "v1", [manifest("v1")]));
    const after = tree(12, "v1", [manifest("v2")]).map((file) =>
      file.path.endsWith("flow-7.ts") || file.path.endsWith("flow-2.ts")
        ? { ...file, content: "// v2\n" }
        : file,
    );
    const written: string[] = [];
    await writeOutput(generated, after, {
      onStep: (step, file) =>
        void (step === "file-written" && file !== undefined && written.push(file)),
    });
    expect(written.at(-1)).toBe(MANIFEST_PATH);
    expect([...written].sort()).toEqual([MANIFEST_PATH, "@org1/flow-7.ts", "@org2/flow-2.ts"]);
  });

  it("leaves unchanged files untouched and removes emptied folders", async () => {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    const before = tree(12, "v1", [{ path: "@gone/flow.ts", content: "// removed\n" }]);
    await writeOutput(generated, before);
    const untouched = path.join(generated, "@org0/flow-0.ts");
    // Replacing a file renames a new one over it: the same inode means it was not written.
    const inodeBefore = statSync(untouched).ino;
    const after = tree(12, "v1").map((file) =>
      file.path === "@org1/flow-1.ts" ? { ...file, content: "// v2 1\n" } : file,
    );
    const diff = await writeOutput(generated, after);
    expect({ changed: diff.changed, removed: diff.removed }).toEqual({
      changed: ["@org1/flow-1.ts", MANIFEST_PATH],
      removed: ["@gone/flow.ts"],
    });
    expect(statSync(untouched).ino).toBe(inodeBefore);
    expect(readdirSync(generated)).not.toContain("@gone");
    expect(await readTree(generated)).toEqual(asRecord(after));
  });
});

describe("writeOutput: files flowgen did not write", () => {
  /** Writes `before`, then adds `added` by hand; returns the output folder. */
  async function handled(before: readonly OutputFile[], added: Record<string, string>) {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    await writeOutput(generated, before);
    await writeFiles(generated, added);
    return generated;
  }

  it.each([
    ["a file the manifest does not record", tree(12, "v1"), { "main.ts": "run();\n" }, "main.ts"],
    [
      "a file of a removed flow, edited by hand",
      tree(12, "v1", [{ path: "@gone/flow.ts", content: "// v1\n" }]),
      { "@gone/flow.ts": "// my fix\n" },
      "@gone/flow.ts",
    ],
    [
      "a folder with a copied index.ts and no manifest",
      [{ path: "index.ts", content: INDEX }],
      { "main.ts": "run();\n" },
      "main.ts",
    ],
  ])("refuses to remove %s, and touches nothing", async (_name, before, added, named) => {
    const generated = await handled(before, added);
    const found = await readTree(generated);
    const refused = await writeOutput(generated, tree(12, "v2")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ForeignOutputError);
    expect((refused as ForeignOutputError).detail).toContain(
      `did not write, or changed since it wrote them: ${named};`,
    );
    expect(await readTree(generated)).toEqual(found);
    expect(readdirSync(path.dirname(generated))).toEqual(["generated"]);
  });

  it("removes a removed flow's file checked out with CRLF line ends (core.autocrlf=true)", async () => {
    const gone = { path: "@gone/flow.ts", content: "// v1\n// line two\n" };
    const generated = await handled(tree(12, "v1", [gone]), {
      "@gone/flow.ts": gone.content.replaceAll("\n", "\r\n"),
    });
    const diff = await writeOutput(generated, tree(12, "v1"));
    expect(diff.removed).toEqual(["@gone/flow.ts"]);
  });

  it("removes what a stopped run left: its marker and temporary files", async () => {
    const files = tree(12, "v1");
    const generated = await handled(files, {
      [WRITING_MARKER]: "",
      "@org0/flow-0.ts.flowgen-tmp-99999999": "// half\n",
    });
    const diff = await writeOutput(generated, files);
    expect(diff.removed).toEqual([WRITING_MARKER, "@org0/flow-0.ts.flowgen-tmp-99999999"]);
    expect(await readTree(generated)).toEqual(asRecord(files));
  });
});

describe("writeOutput: a run told to stop (Ctrl-C)", () => {
  /** Writes `before`, then `after` with a signal aborted at `at`; what the call gave, and the folder. */
  async function stopAt(
    at: WriteStep,
    before: readonly OutputFile[],
    after: readonly OutputFile[],
  ) {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    await writeOutput(generated, before);
    const stop = new AbortController();
    const reason = new Error("SIGINT");
    const outcome = await writeOutput(generated, after, {
      signal: stop.signal,
      onStep: (step) => void (step === at && stop.abort(reason)),
    }).then(
      () => "finished",
      (error: unknown) => (error === reason ? "stopped" : error),
    );
    return { outcome, found: await readTree(generated), beside: readdirSync(dir) };
  }

  it("before the swap: the tree written beside the folder is removed, the old one stays, the lock is released", async () => {
    const before = tree(4, "old");
    const stopped = await stopAt("staged", before, tree(9, "new"));
    expect(stopped).toEqual({ outcome: "stopped", found: asRecord(before), beside: ["generated"] });
  });

  it.each([
    ["once the swap has begun: it is finished", "moved-aside", tree(4, "old"), tree(9, "new")],
    [
      "while files are replaced in place: all of them are, and the marker is removed",
      "marked",
      tree(16, "old"),
      tree(16, "old", [{ path: "@org0/added.ts", content: "// added\n" }]),
    ],
  ] as const)("%s", async (_name, at, before, after) => {
    const stopped = await stopAt(at, before, after);
    expect(stopped).toEqual({ outcome: "finished", found: asRecord(after), beside: ["generated"] });
  });

  it("while waiting for another run's lock: gives up at once, writing nothing and leaving that lock", async () => {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    await writeOutput(generated, tree(2, "old"));
    const release = await lockOutput(generated);
    try {
      const stop = new AbortController();
      const reason = new Error("SIGTERM");
      const writing = writeOutput(generated, tree(3, "new"), {
        signal: stop.signal,
        waitForLock: 30_000,
      });
      stop.abort(reason);
      await expect(writing).rejects.toBe(reason);
      expect(await readTree(generated)).toEqual(asRecord(tree(2, "old")));
      expect(readdirSync(dir).sort()).toEqual(["generated", `generated${LOCK_SUFFIX}`]);
    } finally {
      await release();
    }
  });
});

describe("recoverOutput", () => {
  it("keeps the folders of a run that is still going, and removes those of dead runs", async () => {
    const dir = await tempProject({});
    const generated = path.join(dir, "generated");
    await writeOutput(generated, tree(2, "v1"));
    // process.ppid is alive (the test runner); a pid past the kernel's limit never is.
    await mkdir(`${generated}.flowgen-staging-${process.ppid}`);
    await mkdir(`${generated}.flowgen-staging-99999999`);
    await mkdir(`${generated}.flowgen-previous-99999998`);
    await recoverOutput(generated);
    expect(readdirSync(dir).sort()).toEqual([
      "generated",
      `generated.flowgen-staging-${process.ppid}`,
    ]);
  });

  it("the render cache removes temporary files of dead runs", async () => {
    const dir = await tempProject({
      "cache/render-cache.json.99999999.tmp": "{",
      [`cache/render-cache.json.${process.ppid}.tmp`]: "{",
    });
    const cache = await openRenderCache(path.join(dir, "cache"), dir);
    expect(cache.empty).toBe(true);
    expect(readdirSync(path.join(dir, "cache"))).toEqual([`render-cache.json.${process.ppid}.tmp`]);
  });
});
