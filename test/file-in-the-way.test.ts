import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { tempProject } from "./helpers/temp-dir.js";

const QA = {
  input: { type: "object", properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
};

/** A project as `npm init -y` leaves it (a package.json makes the folder a project), with one flow. */
function project(files: Record<string, unknown> = {}): Promise<string> {
  return tempProject({
    "package.json": { name: "p", type: "commonjs", dependencies: { "openapi-fetch": "*" } },
    "specs/@acme/qa.json": QA,
    ...files,
  });
}

// A path the user names that is a file where flowgen needs a folder is the user's to fix: a
// sentence naming the file, exit 2 and nothing written, never "internal error" and a stack.
describe("a file where a folder is needed", () => {
  it("--out naming a file, or a folder inside one: output-unwritable, for generate and --check", async () => {
    const dir = await project({ outfile: "a file" });
    const written = await flowgen(dir, "generate", "--out", "outfile");
    expect(written.code).toBe(2);
    expect(written.stderr).toMatchInlineSnapshot(`
      "outfile: flowgen cannot write the output folder outfile: this is a file where a folder is needed; move it, or choose another --out (ENOTDIR); run flowgen again once it is fixed [output-unwritable] flowgen-cli/docs/errors.md#output-unwritable
      flowgen: 1 problem; nothing was written.
      "
    `);
    const checked = await flowgen(dir, "generate", "--check", "--out", "outfile/generated");
    expect(checked.code).toBe(2);
    expect(checked.stderr).toMatchInlineSnapshot(`
      "outfile: flowgen cannot read the output folder outfile/generated: this is a file where a folder is needed; move it, or choose another --out (ENOTDIR); run flowgen again once it is fixed [output-unwritable] flowgen-cli/docs/errors.md#output-unwritable
      flowgen: 1 problem; nothing was checked.
      "
    `);
    expect(await readFile(path.join(dir, "outfile"), "utf8")).toBe("a file");
  });

  it("--cache-dir naming a file: the run goes on without a cache", async () => {
    const dir = await project();
    const written = await flowgen(dir, "generate", "--cache-dir", "package.json");
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    const checked = await flowgen(dir, "generate", "--check", "--cache-dir", "package.json/cache");
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("--specs naming a file: no-specs, for generate, new and init, and nothing is written", async () => {
    const dir = await project({ "notes.txt": "mine" });
    const before = (await readdir(dir)).sort();
    const generated = await flowgen(dir, "generate", "--specs", "package.json");
    expect(generated.code).toBe(2);
    expect(generated.stderr).toMatchInlineSnapshot(`
      "package.json: is a file, not a folder; point --specs at the folder of flow specs (one file per flow at <folder>/@<org>/<flow-name>.json) [no-specs] flowgen-cli/docs/errors.md#no-specs
      flowgen: 1 problem in package.json; nothing was written.
      "
    `);
    const made = await flowgen(dir, "new", "@acme/x", "--specs", "package.json/specs");
    expect(made.code).toBe(2);
    expect(made.stderr).toMatchInlineSnapshot(`
      "package.json/specs: package.json is a file, not a folder; point --specs at the folder of flow specs (one file per flow at <folder>/@<org>/<flow-name>.json) [no-specs] flowgen-cli/docs/errors.md#no-specs
      flowgen new: 1 problem; nothing was written.
      "
    `);
    const init = await flowgen(dir, "init", "--specs", "package.json", "--out", "notes.txt/out");
    expect(init.code).toBe(2);
    expect(init.stderr).toMatchInlineSnapshot(`
      "notes.txt: flowgen cannot write the output folder notes.txt/out: this is a file where a folder is needed; move it, or choose another --out (ENOTDIR); run flowgen again once it is fixed [output-unwritable] flowgen-cli/docs/errors.md#output-unwritable
      package.json: is a file, not a folder; point --specs at the folder of flow specs (one file per flow at <folder>/@<org>/<flow-name>.json) [no-specs] flowgen-cli/docs/errors.md#no-specs
      flowgen init: 2 problems; nothing was written.
      "
    `);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it("new: a file where the org's folder goes", async () => {
    const dir = await project({ "specs/@beta": "notes" });
    const made = await flowgen(dir, "new", "@beta/x");
    expect(made.code).toBe(2);
    expect(made.stderr).toMatchInlineSnapshot(`
      "flowgen new: specs/@beta is a file where the folder of @beta's specs goes; rename or move it. Nothing was written. [misplaced-file] flowgen-cli/docs/errors.md#misplaced-file
      "
    `);
    expect(await readFile(path.join(dir, "specs/@beta"), "utf8")).toBe("notes");
  });
});
