import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { formatIssue, sortIssues, type Issue } from "../src/issues.js";
import {
  hashFlowInputs,
  MANIFEST_PATH,
  type OutputManifest,
} from "../src/manifest/output-manifest.js";
import { checkSpecs } from "../src/spec/load-specs.js";
import { readSpecFiles } from "../src/spec/read-spec-files.js";
import { tempProject, writeFiles } from "./helpers/temp-dir.js";

const qa = {
  input: {
    type: "object",
    properties: { question: { type: "string" }, tag: { $ref: "../_shared/tag.json" } },
  },
  output: { type: "object", properties: { answer: { type: "string" } } },
  examples: [{ name: "ok", input: { question: "why?", tag: "t" }, output: { answer: "because" } }],
};
const search = {
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object" },
};
const tag = { type: "string", maxLength: 8 };
/** The same flow with a mistake only its own checks find: an example its input schema refuses. */
const badQa = { ...qa, examples: [{ name: "bad", input: { question: 42 }, output: {} }] };

const BAD_QA_ISSUE =
  'specs/@acme/qa.json:25:9 #/examples/0/input/question: example "bad": input/question must be string; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example';

function report(issues: readonly Issue[]): string[] {
  return sortIssues(issues).map(formatIssue);
}

async function check(dir: string, trusted: readonly string[]): Promise<string[]> {
  const result = checkSpecs(await readSpecFiles("specs", dir), { trusted: new Set(trusted) });
  return result.ok ? [] : report(result.issues);
}

describe("checkSpecs with trusted flows", () => {
  it("skips a trusted flow's own checks, still parses it and still runs the checks across files", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": badQa,
      "specs/@acme/search.json": search,
      "specs/_shared/tag.json": tag,
    });
    expect(await check(dir, [])).toEqual([BAD_QA_ISSUE]);
    const trusted = checkSpecs(await readSpecFiles("specs", dir), {
      trusted: new Set(["@acme/qa.json"]),
    });
    expect(trusted.ok && trusted.specs.flows.map((flow) => flow.id)).toEqual([
      "@acme/qa",
      "@acme/search",
    ]);

    // A shared file is checked whoever trusts whom, and a file that does not parse is reported.
    await writeFiles(dir, {
      "specs/_shared/tag.json": { type: "string", maxLenght: 8 },
      "specs/@acme/search.json": "{",
    });
    expect(await check(dir, ["@acme/qa.json", "@acme/search.json"])).toEqual([
      "specs/@acme/search.json:1:2: invalid JSON: expected '}'; fix the syntax (a JSON linter or editor shows it too) [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
      'specs/_shared/tag.json:3:3 #/maxLenght: "maxLenght" is not a JSON Schema keyword (did you mean "maxLength"?); fix the spelling, or prefix custom keywords with "x-" [unknown-keyword] flowgen-cli/docs/errors.md#unknown-keyword',
    ]);
  });
});

describe("checkSpecs with flows this machine's cache saw pass (parsedBefore)", () => {
  // Text no check would pass: a key twice in one object. The cache can only say this of text that passed.
  const repeated = `{"input": {"type": "object"}, "output": {"type": "object"}, "output": {"type": "object"}}`;

  it("parses them without looking for repeated keys again; flows trusted on the manifest's word get that check", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": repeated,
      "specs/@acme/search.json": search,
    });
    const sources = await readSpecFiles("specs", dir);
    const trusted = new Set(["@acme/qa.json"]);
    const cached = checkSpecs(sources, { trusted, parsedBefore: trusted });
    expect(cached.ok && cached.specs.flows.map((flow) => flow.id)).toEqual([
      "@acme/qa",
      "@acme/search",
    ]);
    const manifestOnly = checkSpecs(sources, { trusted });
    expect(manifestOnly.ok ? [] : report(manifestOnly.issues)).toEqual([
      "specs/@acme/qa.json:1:61 #/output: this key appears twice in one object (first at line 1); JSON parsers keep only one of them, so merge the two into one [duplicate-key] flowgen-cli/docs/errors.md#duplicate-key",
    ]);
  });
});

describe("generate trusts the flows this machine checked, and the manifest only when told to", () => {
  async function generatedProject(): Promise<string> {
    const dir = await tempProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/search.json": search,
      "specs/_shared/tag.json": tag,
    });
    const result = await generate({ cwd: dir, config: false, cacheDir: ".cache-a" });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return dir;
  }
  const manifestFile = (dir: string) => path.join(dir, "generated", MANIFEST_PATH);
  const readManifest = async (dir: string) =>
    JSON.parse(await readFile(manifestFile(dir), "utf8")) as OutputManifest;
  /** Records the specs as they are now in the manifest, as if `fingerprint`'s flowgen had checked them. */
  const recordSpecs = async (dir: string, fingerprint: string) => {
    const manifest = await readManifest(dir);
    const flows = hashFlowInputs(fingerprint, await readSpecFiles("specs", dir));
    await writeFile(manifestFile(dir), JSON.stringify({ ...manifest, fingerprint, flows }));
  };
  const issuesOf = async (dir: string, cacheDir: string, trustManifest = false) => {
    const result = await generate({ cwd: dir, config: false, cacheDir, trustManifest });
    return result.ok ? [] : report(result.issues);
  };

  it("reports an edited spec that breaks", async () => {
    const dir = await generatedProject();
    await writeFiles(dir, { "specs/@acme/qa.json": badQa });
    expect(await issuesOf(dir, ".cache-b")).toEqual([BAD_QA_ISSUE]);
  });

  it("reports an unchanged spec that a changed shared file now breaks", async () => {
    const dir = await generatedProject();
    await writeFiles(dir, { "specs/_shared/tag.json": { type: "integer" } });
    expect(await issuesOf(dir, ".cache-b")).toEqual([
      'specs/@acme/qa.json:26:9 #/examples/0/input/tag: example "ok": input/tag must be integer; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example',
    ]);
  });

  it("checks a flow the manifest records as it is, unless told to trust the manifest, and trusts nothing under another fingerprint", async () => {
    const dir = await generatedProject();
    // A forged record: the manifest says this flowgen wrote the output from the broken spec.
    await writeFiles(dir, { "specs/@acme/qa.json": badQa });
    const { fingerprint } = await readManifest(dir);
    await recordSpecs(dir, fingerprint);
    expect(await issuesOf(dir, ".cache-b")).toEqual([BAD_QA_ISSUE]);
    // Only a skipped check lets it through, which shows the trust is taken when asked for.
    expect(await issuesOf(dir, ".cache-b", true)).toEqual([]);

    await writeFiles(dir, { "specs/@acme/qa.json": badQa });
    await recordSpecs(dir, "another flowgen");
    expect(await issuesOf(dir, ".cache-c", true)).toEqual([BAD_QA_ISSUE]);
  });
});

describe("a flow's input hash", () => {
  it("counts every shared file when the flow has a discriminator mapping, which may name one", async () => {
    const pet = {
      input: {
        type: "object",
        oneOf: [{ $ref: "../_shared/cat.json" }],
        discriminator: { propertyName: "kind", mapping: { dog: "../_shared/dog.json" } },
      },
      output: { type: "object" },
    };
    const dir = await tempProject({
      "specs/@acme/pet.json": pet,
      "specs/_shared/cat.json": { type: "object" },
      "specs/_shared/dog.json": { type: "object" },
    });
    const before = hashFlowInputs("fingerprint", await readSpecFiles("specs", dir));
    await writeFiles(dir, { "specs/_shared/dog.json": { type: "object", properties: {} } });
    const after = hashFlowInputs("fingerprint", await readSpecFiles("specs", dir));
    expect(after["@acme/pet.json"]).not.toBe(before["@acme/pet.json"]);
  });
});
