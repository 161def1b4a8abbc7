import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { check, generate } from "../src/api/generate.js";
import { hashContent } from "../src/cache/render-cache.js";
import { MANIFEST_PATH, type OutputManifest } from "../src/manifest/output-manifest.js";
import { authorsProject, freshClone, injectWithForgedManifest } from "./helpers/forged-clone.js";
import { runCli } from "./helpers/run-cli.js";
import { copyProject } from "./helpers/temp-dir.js";

const CACHE_DIR = "node_modules/.cache/flowgen";

/** The render cache a project's runs left: its index (format line, MAC, entries) and pack. */
async function readCache(dir: string) {
  const indexText = await readFile(path.join(dir, CACHE_DIR, "render-cache.json"), "utf8");
  const [format = "", mac = "", json = ""] = indexText.split("\n");
  const index = JSON.parse(json) as Record<string, [number, number, string]>;
  const pack = await readFile(path.join(dir, CACHE_DIR, "render-cache.pack"));
  return { indexText, format, mac, index, pack };
}

async function writeCache(dir: string, indexText: string, pack: Buffer): Promise<void> {
  await mkdir(path.join(dir, CACHE_DIR), { recursive: true });
  await writeFile(path.join(dir, CACHE_DIR, "render-cache.pack"), pack);
  await writeFile(path.join(dir, CACHE_DIR, "render-cache.json"), indexText);
}

describe("the committed manifest is no evidence of what generated/ holds", () => {
  it("a forged manifest on a fresh clone: --check exits 1 naming the file, and generate repairs it", async () => {
    const author = await authorsProject();
    const pristine = await readFile(path.join(author, "generated/@acme/qa.ts"), "utf8");
    const clone = await freshClone(author);
    await injectWithForgedManifest(clone);

    const checked = await runCli(clone, "generate", "--check");
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("changed  generated/@acme/qa.ts");
    expect(checked.stderr).toContain("attacker.example");

    const generated = await runCli(clone, "generate");
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain("2 changed");
    expect(await readFile(path.join(clone, "generated/@acme/qa.ts"), "utf8")).toBe(pristine);
    expect((await runCli(clone, "generate", "--check")).code).toBe(0);
  });

  it("a render cache committed into the project is not taken as this machine's", async () => {
    const author = await authorsProject();
    const clone = await freshClone(author);
    await injectWithForgedManifest(clone);
    // The forger also commits a cache (git add -f) whose entries hold the injected client, with
    // an index of its own: it cannot sign that for this machine.
    const { format, mac, index, pack } = await readCache(author);
    const replacements = new Map([
      [await readFile(path.join(author, "generated/@acme/qa.ts"), "utf8"), "generated/@acme/qa.ts"],
      [
        await readFile(path.join(author, "generated", MANIFEST_PATH), "utf8"),
        `generated/${MANIFEST_PATH}`,
      ],
    ]);
    const chunks: Buffer[] = [];
    const forgedIndex: typeof index = {};
    let offset = 0;
    for (const [key, [start, length]] of Object.entries(index)) {
      const value = pack.subarray(start, start + length).toString("utf8");
      const replacement = replacements.get(value);
      const bytes = Buffer.from(
        replacement === undefined ? value : await readFile(path.join(clone, replacement), "utf8"),
      );
      forgedIndex[key] = [offset, bytes.length, hashContent(bytes)];
      chunks.push(bytes);
      offset += bytes.length;
    }
    await writeCache(
      clone,
      [format, mac, JSON.stringify(forgedIndex)].join("\n"),
      Buffer.concat(chunks),
    );

    const checked = await check({ cwd: clone, config: false });
    expect(checked.ok && checked.diff.changed).toEqual([MANIFEST_PATH, "@acme/qa.ts"]);
  });

  it("this machine's own index over a pack with other bytes in a value's place gives that value no credit", async () => {
    const author = await authorsProject();
    const clone = await freshClone(author);
    const pristine = await readFile(path.join(author, "generated/@acme/qa.ts"), "utf8");
    const { indexText, index, pack } = await readCache(author);
    // The same length, other bytes: the index still points at the client's place in the pack.
    const entry = Object.values(index).find(
      ([start, length]) => pack.subarray(start, start + length).toString("utf8") === pristine,
    );
    expect(entry).toBeDefined();
    const [start = 0, length = 0] = entry ?? [];
    const forged = Buffer.from(pack);
    forged.fill("/", start + length - 40, start + length - 1);
    await writeCache(clone, indexText, forged);

    const generated = await generate({ cwd: clone, config: false });
    expect(generated.ok).toBe(true);
    expect(await readFile(path.join(clone, "generated/@acme/qa.ts"), "utf8")).toBe(pristine);
  });

  it("a forged manifest cannot make generate skip the checks of a spec", async () => {
    const author = await authorsProject();
    const clone = await freshClone(author);
    // A spec edit the checks refuse, recorded in the manifest as if flowgen had checked it.
    const spec = path.join(clone, "specs/@acme/qa.json");
    const parsed = JSON.parse(await readFile(spec, "utf8")) as Record<string, unknown>;
    await writeFile(spec, JSON.stringify({ ...parsed, deprecated: "yes" }, null, 2));
    const { hashFlowInputs } = await import("../src/manifest/output-manifest.js");
    const { readSpecFiles } = await import("../src/spec/read-spec-files.js");
    const manifestFile = path.join(clone, "generated", MANIFEST_PATH);
    const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as OutputManifest;
    const flows = hashFlowInputs(manifest.fingerprint, await readSpecFiles("specs", clone));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, flows }));

    const result = await generate({ cwd: clone, config: false });
    expect(result.ok ? [] : result.issues.map((issue) => issue.code)).toEqual(["invalid-value"]);
  });

  it("--trust-manifest is the opt-in fast path: it takes the manifest's word, forgery included", async () => {
    const clone = await freshClone(await authorsProject());
    await injectWithForgedManifest(clone);
    const trusting = await runCli(clone, "generate", "--check", "--trust-manifest");
    expect(trusting.code).toBe(0);
    // A config file, which a pull request can change, cannot turn it on.
    await writeFile(
      path.join(clone, "flowgen.config.json"),
      JSON.stringify({ trustManifest: true }),
    );
    const configured = await runCli(clone, "generate", "--check");
    expect(configured.code).toBe(2);
    expect(configured.stderr).toContain("flowgen.config.json: is not a flowgen config");
    await rm(path.join(clone, "flowgen.config.json"));
  });

  it("what a --trust-manifest run keeps from the output folder is not cached as rendered: a later run without it still finds the forgery", async () => {
    const clone = await freshClone(await authorsProject());
    await injectWithForgedManifest(clone);
    // One spec edited: that flow is rendered, and the forged client is kept on the manifest's word.
    const spec = path.join(clone, "specs/@acme/search.json");
    const parsed = JSON.parse(await readFile(spec, "utf8")) as Record<string, unknown>;
    await writeFile(spec, JSON.stringify({ ...parsed, description: "Edited." }, null, 2));
    const trusting = await runCli(clone, "generate", "--trust-manifest");
    expect(trusting.code).toBe(0);
    expect(await readFile(path.join(clone, "generated/@acme/qa.ts"), "utf8")).toContain(
      "attacker.example",
    );

    const checked = await runCli(clone, "generate", "--check");
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("changed  generated/@acme/qa.ts");
  });

  it("a cache this machine wrote is reused; with the machine's secret inside the project, none is", async () => {
    // The author's machine: the whole project, with the render cache its run left.
    const own = await copyProject(await authorsProject());
    const stages = async () => {
      const run = await runCli(own, "generate", "--check", "--verbose");
      expect(run.code).toBe(0);
      return run.stderr
        .match(/^flowgen: (\S+(?: \S+)?) +\d+\.\d{3}s$/gm)
        ?.map((line) => line.replace(/^flowgen: | +\d.*$/g, ""));
    };
    // Warm: the whole run is remembered, nothing is checked or rendered.
    expect(await stages()).toEqual(["spec read", "checks", "write"]);
    // A secret a repository could hold (a home folder that is the project) authenticates nothing.
    vi.stubEnv("XDG_CACHE_HOME", path.join(own, ".cache"));
    try {
      expect(await stages()).toContain("model");
      expect(await stages()).toContain("model");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("generate removes only files flowgen wrote", () => {
  it("a copied index.ts beside someone's file, with or without a manifest, does not make the file flowgen's", async () => {
    const dir = await copyProject(await authorsProject());
    await mkdir(path.join(dir, "src"));
    await cp(path.join(dir, "generated/index.ts"), path.join(dir, "src/index.ts"));
    await writeFile(path.join(dir, "src/main.ts"), 'console.log("mine");\n');

    const refused = await runCli(dir, "generate", "--out", "src", "--quiet");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatchInlineSnapshot(`
      "src: holds files flowgen did not write, or changed since it wrote them: main.ts; generate would remove them, and removes only what its manifest (.flowgen-manifest.json) records with the content it has: move them out of this folder, or choose another --out [not-an-output-folder] flowgen-cli/docs/errors.md#not-an-output-folder
      flowgen: 1 problem; nothing was written.
      "
    `);
    expect((await readdir(path.join(dir, "src"))).sort()).toEqual(["index.ts", "main.ts"]);

    // A manifest copied along records flowgen's files, not this one.
    await cp(path.join(dir, "generated", MANIFEST_PATH), path.join(dir, "src", MANIFEST_PATH));
    expect((await runCli(dir, "generate", "--out", "src")).code).toBe(2);
    expect(await readFile(path.join(dir, "src/main.ts"), "utf8")).toBe('console.log("mine");\n');
  });

  it("the files of a removed flow, as flowgen wrote them, are removed", async () => {
    const dir = await copyProject(await authorsProject());
    await rm(path.join(dir, "specs/@acme/search.json"));
    const generated = await runCli(dir, "generate");
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain("2 removed");
    expect(await readdir(path.join(dir, "generated/@acme"))).toEqual(["qa.ts", "qa.types.ts"]);
  });
});
