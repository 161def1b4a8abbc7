import { describe, expect, it } from "vitest";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { tempProject } from "./helpers/temp-dir.js";

const QA = {
  input: { type: "object", properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
};

// A machine that refuses to write is the user's to fix: a problem naming where and what to do,
// exit 2, never "internal error" and a stack. (Permissions cannot be shown here: the suite may run
// as root, which they do not stop.)
describe("an output folder the machine refuses", () => {
  it("names the file that stands where a folder is needed, for generate and --check", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": QA, blocker: "a file" });
    const written = await flowgen(dir, "generate", "--out", "blocker/generated");
    expect(written.code).toBe(2);
    expect(written.stderr).toBe(
      "blocker: flowgen cannot write the output folder blocker/generated: this is a file where a folder is needed; move it, or choose another --out (ENOTDIR); run flowgen again once it is fixed [output-unwritable] flowgen-cli/docs/errors.md#output-unwritable\nflowgen: 1 problem; nothing was written.\n",
    );
    const checked = await flowgen(dir, "generate", "--out", "blocker/generated", "--check");
    expect(checked.code).toBe(2);
    expect(checked.stderr).toMatch(
      /^blocker: flowgen cannot read the output folder blocker\/generated: this is a file where a folder is needed; .* \(ENOTDIR\); .*\[output-unwritable\]/,
    );
  });

  it("says when the path is too long for the file system", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": QA });
    const run = await flowgen(dir, "generate", "--out", `long/${"a".repeat(300)}`);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^long: flowgen cannot write the output folder long\/a{300}: the path is too long for the file system; choose a shorter --out \(ENAMETOOLONG\)/,
    );
    expect(run.stderr).not.toContain("internal error");
  });
});
