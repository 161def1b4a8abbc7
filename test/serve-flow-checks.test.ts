import { describe, expect, it } from "vitest";
import { buildModel } from "../src/model/build-model.js";
import { compileFlowChecks } from "../src/serve/flow-checks.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { tempProject } from "./helpers/temp-dir.js";

async function checksOf(question: object, note: object) {
  const dir = await tempProject({
    "specs/@acme/qa.json": {
      input: { type: "object", required: ["question"], properties: { question, note } },
      output: { type: "object" },
    },
  });
  const loaded = await loadSpecs("specs", dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const compiled = compileFlowChecks(buildModel(loaded.specs));
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.failures));
  return compiled;
}

describe("serve's request checks, compiled once per schema in a process", () => {
  it("check each start against its own schemas, and list each start's unsupported patterns", async () => {
    const lookAround = { type: "string", pattern: "^(?!x)" };
    const first = await checksOf({ type: "string" }, lookAround);
    const again = await checksOf({ type: "string" }, lookAround);
    const edited = await checksOf({ type: "string", maxLength: 3 }, { type: "string" });
    const input = { question: "Why?!", note: "n" };
    for (const compiled of [first, again]) {
      expect(compiled.checks.get("@acme/qa")?.input(input)).toEqual([
        { pointer: "/note", message: 'must match pattern "^(?!x)"' },
      ]);
      expect(compiled.unsupported.map((p) => [p.flow.id, p.which, p.source])).toEqual([
        ["@acme/qa", "input", "^(?!x)"],
      ]);
    }
    expect(edited.checks.get("@acme/qa")?.input(input)).toEqual([
      { pointer: "/question", message: "must NOT have more than 3 characters" },
    ]);
    expect(edited.unsupported).toEqual([]);
  });
});
