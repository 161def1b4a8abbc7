import { describe, expect, it } from "vitest";
import { renderProject } from "../src/generate.js";
import { formatIssue } from "../src/issues.js";
import { contract } from "./helpers/contract.js";
import { tempProject } from "./helpers/temp-dir.js";

const schema = (required: string[]) => ({
  type: "object",
  required,
  properties: { q: { type: "string" }, lang: { type: "string" } },
});

describe("renderProject: the contract it replaces", () => {
  it("with failOnBreaking, returns each breaking change as a problem in the flow's spec, and no files", async () => {
    const cwd = await tempProject({
      "specs/@acme/qa.yaml": `input: ${JSON.stringify(schema(["q", "lang"]))}\noutput: { type: object }\n`,
      "generated/openapi.json": contract({
        "@acme/qa": { input: schema(["q"]) },
        "@acme/gone": {},
      }),
    });
    const result = await renderProject({
      specs: "specs",
      out: "generated",
      cwd,
      failOnBreaking: true,
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toMatchInlineSnapshot(`
      [
        "specs/@acme/gone: flow removed without being deprecated first; mark it "deprecated": true in a release before removing it: this breaks callers (flow-removed); make the change compatible, or publish it as a new flow and deprecate this one, or generate without --fail-on-breaking to accept it [breaking-change] flowgen-cli/docs/errors.md#breaking-change",
        "specs/@acme/qa.yaml #/input/required: "lang" is now required: this breaks callers (required-added); make the change compatible, or publish it as a new flow and deprecate this one, or generate without --fail-on-breaking to accept it [breaking-change] flowgen-cli/docs/errors.md#breaking-change",
      ]
    `);
    expect(result.contract).toMatchObject({
      base: "generated/openapi.json",
      head: "specs",
      breaking: 2,
    });
  });

  it("without failOnBreaking, renders the files and reports the changes beside them", async () => {
    const cwd = await tempProject({
      "specs/@acme/qa.json": { input: schema(["q"]), output: { type: "object" } },
      "generated/openapi.json": contract({ "@acme/qa": { input: schema(["q", "lang"]) } }),
    });
    const result = await renderProject({ specs: "specs", out: "generated", cwd });
    expect(result.ok && result.files.length).toBeGreaterThan(3);
    expect(result.contract?.changes.map((c) => `${c.kind} ${c.rule}`)).toEqual([
      "compatible required-removed",
    ]);
  });
});
