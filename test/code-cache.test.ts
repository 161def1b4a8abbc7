import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireCached, useCodeCache, type CodeCacheSettings } from "../src/cache/code-cache.js";
import { tempProject } from "./helpers/temp-dir.js";

// TypeScript and ts-morph load through `requireCached`: large CommonJS files compile from V8 code
// an earlier run cached, when that code carries the machine secret's HMAC for the same source.

afterEach(() => useCodeCache(undefined));

/** A CommonJS package over 1 MiB (the size worth caching) that requires a file of its own and a builtin. */
async function largePackage(dir: string): Promise<{ require: NodeJS.Require; main: string }> {
  const pkg = path.join(dir, "node_modules", "large");
  await mkdir(pkg, { recursive: true });
  writeFileSync(path.join(pkg, "package.json"), '{ "name": "large", "main": "index.js" }\n');
  writeFileSync(path.join(pkg, "small.js"), "module.exports = 'small';\n");
  const filler = `// ${"x".repeat(1 << 20)}\n`;
  const main = path.join(pkg, "index.js");
  writeFileSync(
    main,
    `${filler}const path = require("node:path");\nmodule.exports = { small: require("./small.js"), name: path.basename(__filename), dir: path.basename(__dirname), resolved: path.basename(require.resolve("./small.js")), same: module.exports === exports };\n`,
  );
  return { require: createRequire(path.join(dir, "app.js")), main };
}

function settingsIn(dir: string, secret = "a".repeat(64)): CodeCacheSettings {
  return { dir: path.join(dir, "code-cache"), secret };
}

/** Loads the package afresh (out of require's cache) through `requireCached`. */
function load(require: NodeJS.Require, main: string): unknown {
  delete require.cache[main];
  return requireCached(require, "large");
}

function entryOf(settings: CodeCacheSettings): { file: string; ino: number; bytes: Buffer } {
  const [name] = readdirSync(settings.dir).filter((entry) => entry.endsWith(".v8"));
  const file = path.join(settings.dir, name ?? "");
  return { file, ino: statSync(file).ino, bytes: readFileSync(file) };
}

describe("the code cache", () => {
  it("gives a module what Node's own loading gives it, and caches its code", async () => {
    const dir = await tempProject({});
    const { require, main } = await largePackage(dir);
    const plain = load(require, main);
    const settings = settingsIn(dir);
    useCodeCache(settings);
    const cached = load(require, main);
    expect(cached).toEqual(plain);
    expect(cached).toEqual({
      small: "small",
      name: "index.js",
      dir: "large",
      resolved: "small.js",
      same: true,
    });
    // One entry, for the large file only.
    expect(readdirSync(settings.dir).filter((name) => name.endsWith(".v8"))).toHaveLength(1);
  });

  it("compiles from a sound entry and leaves it as it is", async () => {
    const dir = await tempProject({});
    const { require, main } = await largePackage(dir);
    const settings = settingsIn(dir);
    useCodeCache(settings);
    load(require, main);
    const written = entryOf(settings);
    expect(load(require, main)).toMatchObject({ small: "small" });
    // Used, not written again: the same file (a rewrite renames a new one into place).
    expect(entryOf(settings).ino).toBe(written.ino);
  });

  it("ignores and replaces an entry that is not this machine's, or that is for another source", async () => {
    const dir = await tempProject({});
    const { require, main } = await largePackage(dir);
    const settings = settingsIn(dir);
    useCodeCache(settings);
    load(require, main);
    const sound = entryOf(settings);

    // Forged: the same code under another secret's HMAC.
    useCodeCache(settingsIn(dir, "b".repeat(64)));
    load(require, main);
    const forged = entryOf(settings);
    expect(forged.ino).not.toBe(sound.ino);
    expect(forged.bytes.subarray(0, 32)).not.toEqual(sound.bytes.subarray(0, 32));

    // Damaged: one byte of the code changed.
    useCodeCache(settings);
    load(require, main);
    const rewritten = entryOf(settings);
    const damaged = Buffer.from(rewritten.bytes);
    damaged[damaged.length - 1] = (damaged.at(-1) ?? 0) ^ 1;
    writeFileSync(rewritten.file, damaged);
    const damagedIno = statSync(rewritten.file).ino;
    expect(load(require, main)).toMatchObject({ small: "small" });
    expect(entryOf(settings).ino).not.toBe(damagedIno);
    expect(entryOf(settings).bytes).toEqual(rewritten.bytes);

    // The source changed since: its modification time says so.
    const before = entryOf(settings).ino;
    utimesSync(main, new Date(), new Date(Date.UTC(2020, 0, 1)));
    load(require, main);
    expect(entryOf(settings).ino).not.toBe(before);

    // Written again in place, at the same length, with its times put back (`cp -p`, `touch -r`):
    // its change time says so.
    const info = statSync(main);
    writeFileSync(main, readFileSync(main, "utf8").replace("// x", "// y"));
    utimesSync(main, info.atime, info.mtime);
    expect(statSync(main)).toMatchObject({ size: info.size, mtimeMs: info.mtimeMs });
    const stale = entryOf(settings).ino;
    expect(load(require, main)).toMatchObject({ small: "small" });
    expect(entryOf(settings).ino).not.toBe(stale);
  });

  it("removes what a writer that died left, not what a live one is writing", async () => {
    const dir = await tempProject({});
    const { require, main } = await largePackage(dir);
    const settings = settingsIn(dir);
    useCodeCache(settings);
    load(require, main);
    const { file } = entryOf(settings);
    // No process has this pid (above Linux's largest); this process is alive.
    const dead = `${file}.4194305.0a1b2c.tmp`;
    const live = `${file}.${process.pid}.0a1b2c.tmp`;
    writeFileSync(dead, "");
    writeFileSync(live, "");
    rmSync(file);
    load(require, main);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it("is not used without settings", async () => {
    const dir = await tempProject({});
    const { require, main } = await largePackage(dir);
    expect(load(require, main)).toMatchObject({ small: "small" });
    expect(() => readdirSync(settingsIn(dir).dir)).toThrow();
  });
});
