import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { POOL_THRESHOLD } from "../src/render/open-run.js";
import { tempProject } from "./helpers/temp-dir.js";

/** Enough flows that a run has worker threads (here, from sources: its own thread) check the examples while it renders. */
const FLOWS = POOL_THRESHOLD / 2;

const flow = (example: unknown) => ({
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object" },
  examples: [{ name: "one", input: example, output: {} }],
});

function project(extra: Record<string, unknown> = {}): Promise<string> {
  const specs: Record<string, unknown> = {};
  for (let i = 0; i < FLOWS; i++) specs[`specs/@acme/flow-${i}.json`] = flow({ q: "why?" });
  return tempProject({ ...specs, ...extra });
}

const BAD_EXAMPLE =
  'specs/@acme/flow-3.json:17:9 #/examples/0/input/q: example "one": input/q must be string; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example';

async function issuesOf(dir: string, rules?: Record<string, "error" | "warn">) {
  const result = await generate({ cwd: dir, config: false, ...(rules ? { rules } : {}) });
  return {
    issues: result.ok ? [] : sortIssues(result.issues).map(formatIssue),
    warnings: sortIssues(result.warnings ?? []).map(formatIssue),
  };
}

describe("example checks a large run defers to its worker threads", () => {
  it("still refuse a wrong example, write nothing, and refuse it again on the next run", async () => {
    const dir = await project({ "specs/@acme/flow-3.json": flow({ q: 42 }) });
    expect((await issuesOf(dir)).issues).toEqual([BAD_EXAMPLE]);
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
    // The flow was not recorded as checked: the render cache does not let it through.
    expect((await issuesOf(dir)).issues).toEqual([BAD_EXAMPLE]);
  });

  it("are made at once with the other checks when those fail, so every problem is reported", async () => {
    const dir = await project({
      "specs/@acme/flow-3.json": flow({ q: 42 }),
      "specs/@acme/flow-5.json": { ...flow({ q: "x" }), deprecated: "yes" },
    });
    const { issues } = await issuesOf(dir);
    expect(issues.map((line) => /\[([a-z-]+)\]/.exec(line)?.[1])).toEqual([
      "invalid-example",
      "invalid-value",
    ]);
  });

  it("under a rule that makes them warnings, warn on this run and on the next, which trusts the flow", async () => {
    const dir = await project({ "specs/@acme/flow-3.json": flow({ q: 42 }) });
    const rules = { "invalid-example": "warn" } as const;
    expect(await issuesOf(dir, rules)).toEqual({ issues: [], warnings: [BAD_EXAMPLE] });
    expect(existsSync(path.join(dir, "generated/@acme/flow-3.ts"))).toBe(true);
    expect(await issuesOf(dir, rules)).toEqual({ issues: [], warnings: [BAD_EXAMPLE] });
  });
});
