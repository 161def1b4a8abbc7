import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { check, generate } from "../src/api/generate.js";
import { readCurrentOutput } from "../src/generate.js";
import {
  hashContent,
  hashFlowInputs,
  MANIFEST_PATH,
  type OutputManifest,
} from "../src/manifest/output-manifest.js";
import { readSpecFiles } from "../src/spec/read-spec-files.js";
import { copyProject, REPO_ROOT, sharedProject, tempProject } from "./helpers/temp-dir.js";

/** Generates a copy of the repo's specs in `dir`, with its render cache in .cache-a. */
async function generateSpecs(dir: string): Promise<void> {
  await cp(path.join(REPO_ROOT, "specs"), path.join(dir, "specs"), { recursive: true });
  const result = await generate({ cwd: dir, config: false, cacheDir: ".cache-a" });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
}

/** The repo's specs, generated once for this file. */
const generated = sharedProject(generateSpecs);

/**
 * A fresh clone of a project that committed generated/ (no render cache in .cache-b): a copy of
 * the one generated for this file. Runs that render, to prove what the manifest cannot, use the
 * cache the generating run left in .cache-a, as on the machine that generated it.
 */
async function generatedProject(): Promise<string> {
  return copyProject(await generated());
}

const options = (dir: string) => ({
  specs: "specs",
  out: "generated",
  cwd: dir,
  cacheDir: ".cache-b",
});

async function readManifestFile(dir: string): Promise<OutputManifest> {
  return JSON.parse(
    await readFile(path.join(dir, "generated", MANIFEST_PATH), "utf8"),
  ) as OutputManifest;
}

describe("the output manifest", () => {
  it("trusted, answers --check on a fresh clone without rendering, and still catches a hand-edited file", async () => {
    const dir = await generatedProject();
    const current = await readCurrentOutput(options(dir));
    expect(current?.flowCount).toBe(5);
    const fresh = await check({
      cwd: dir,
      config: false,
      cacheDir: ".cache-b",
      trustManifest: true,
    });
    expect(fresh.ok && fresh.upToDate).toBe(true);

    const edited = path.join(dir, "generated/@acme/qa.ts");
    await writeFile(edited, `${await readFile(edited, "utf8")}// a hand edit\n`);
    expect(await readCurrentOutput(options(dir))).toBeUndefined();
    const stale = await check({ cwd: dir, config: false, cacheDir: ".cache-a" });
    expect(stale.ok && stale.diff.changed).toEqual(["@acme/qa.ts"]);
  });

  it("does not answer when a spec changed: the render finds what is stale", async () => {
    const dir = await generatedProject();
    const spec = path.join(dir, "specs/@acme/qa.json");
    const parsed = JSON.parse(await readFile(spec, "utf8")) as { description?: string };
    await writeFile(spec, JSON.stringify({ ...parsed, description: "Edited." }, null, 2));
    expect(await readCurrentOutput(options(dir))).toBeUndefined();
    const stale = await check({ cwd: dir, config: false, cacheDir: ".cache-a" });
    expect(stale.ok && stale.upToDate).toBe(false);
  });

  it("with trustManifest, lets generate keep files whose inputs and content match the manifest, rendering only the rest", async () => {
    const dir = await generatedProject();
    // Proof that a kept file is not rendered: record a different content for it; generate must keep that content.
    const kept = path.join(dir, "generated/@globex/search.ts");
    const marked = `${await readFile(kept, "utf8")}// kept from disk\n`;
    await writeFile(kept, marked);
    const manifest = await readManifestFile(dir);
    const files = {
      ...manifest.files,
      "@globex/search.ts": {
        inputs: manifest.files["@globex/search.ts"]?.inputs ?? "",
        output: hashContent(marked),
      },
    };
    await writeFile(
      path.join(dir, "generated", MANIFEST_PATH),
      JSON.stringify({ ...manifest, files }, null, 2),
    );
    // ...while a file whose content no longer matches its record is rendered again.
    await writeFile(path.join(dir, "generated/@acme/qa.ts"), "// broken\n");
    const result = await generate({
      cwd: dir,
      config: false,
      cacheDir: ".cache-b",
      trustManifest: true,
    });
    // The manifest is rewritten too: the hand-written one above is not formatted as flowgen writes it.
    expect(result.ok && result.diff.changed).toEqual([MANIFEST_PATH, "@acme/qa.ts"]);
    expect(await readFile(kept, "utf8")).toBe(marked);
    // Without trusting the manifest, nothing is taken from disk: the file is rendered as the specs give it.
    const full = await generate({ cwd: dir, config: false, cacheDir: ".cache-a" });
    expect(full.ok && full.diff.changed).toEqual([MANIFEST_PATH, "@globex/search.ts"]);
  });

  it("is the same bytes in any folder on any machine: hashes only, no paths, no times", async () => {
    // Two runs in two folders.
    const a = await generated();
    const b = await tempProject({});
    await generateSpecs(b);
    const text = await readFile(path.join(a, "generated", MANIFEST_PATH), "utf8");
    expect(await readFile(path.join(b, "generated", MANIFEST_PATH), "utf8")).toBe(text);
    expect(text).not.toContain(a);
    expect(text).not.toContain(REPO_ROOT);
    const manifest = await readManifestFile(a);
    expect(Object.keys(manifest.files)).toEqual([...Object.keys(manifest.files)].sort());
    expect(Object.keys(manifest)).toEqual(["fingerprint", "flows", "files"]);
  });
});

describe("a flow's input hash", () => {
  async function hashesAfter(files: Record<string, string>): Promise<Record<string, string>> {
    const dir = await tempProject(files);
    await cp(path.join(REPO_ROOT, "specs"), path.join(dir, "specs"), {
      recursive: true,
      force: false,
    });
    return hashFlowInputs("fingerprint", await readSpecFiles("specs", dir));
  }

  it("covers the shared files the flow reaches by $ref, and only those", async () => {
    const base = await hashesAfter({});
    const money = JSON.parse(
      await readFile(path.join(REPO_ROOT, "specs/_shared/money.json"), "utf8"),
    ) as Record<string, unknown>;
    const edited = await hashesAfter({
      "specs/_shared/money.json": JSON.stringify({ ...money, description: "Edited." }),
    });
    const changed = Object.keys(base).filter((flow) => base[flow] !== edited[flow]);
    expect(changed).toEqual(["@acme/invoice.json", "@globex/search.json"]);
    // A new shared file no flow references changes nothing.
    expect(await hashesAfter({ "specs/_shared/unused.json": "{}" })).toEqual(base);
  });

  it("counts every shared file when a reference cannot be followed", async () => {
    const flow = JSON.stringify({
      input: { $ref: "https://example.com/schema.json" },
      output: { type: "object" },
    });
    const base = await hashesAfter({ "specs/@acme/remote.json": flow });
    const edited = await hashesAfter({
      "specs/@acme/remote.json": flow,
      "specs/_shared/unused.json": "{}",
    });
    expect(edited["@acme/remote.json"]).not.toBe(base["@acme/remote.json"]);
    expect(edited["@acme/qa.json"]).toBe(base["@acme/qa.json"]);
  });

  // The parsers read each of these as a `$ref` (or a key standing for one) that the scan of the
  // text cannot see: such a flow counts every shared file, as for a reference it cannot follow.
  it.each([
    [
      "an escaped JSON key",
      "specs/@acme/hidden.json",
      '{"input":{"\\u0024ref":"../_shared/a.json"},"output":{"type":"object"}}',
    ],
    [
      "an escaped YAML key",
      "specs/@acme/hidden.yaml",
      'input:\n  "\\x24ref": ../_shared/a.json\noutput:\n  type: object\n',
    ],
    [
      "a YAML alias key",
      "specs/@acme/hidden.yaml",
      "x-key: &r $ref\ninput:\n  *r : ../_shared/a.json\noutput:\n  type: object\n",
    ],
    [
      "a YAML explicit key",
      "specs/@acme/hidden.yaml",
      "input:\n  ? $ref # the shared file\n  : ../_shared/a.json\noutput:\n  type: object\n",
    ],
  ])("counts every shared file when a flow has %s", async (_what, file, text) => {
    const flow = file.replace("specs/", "");
    const base = await hashesAfter({ [file]: text, "specs/_shared/a.json": "{}" });
    const edited = await hashesAfter({ [file]: text, "specs/_shared/a.json": '{"type":"string"}' });
    expect(edited[flow]).not.toBe(base[flow]);
  });
});
