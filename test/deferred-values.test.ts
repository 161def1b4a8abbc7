import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeepingWorkers } from "../src/api/generate.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { POOL_THRESHOLD } from "../src/render/open-run.js";
import { inThreadPool } from "../src/workers/stage-pool.js";
import { tempProject } from "./helpers/temp-dir.js";

/** Enough flows that a run has worker threads check the values and examples while it renders. */
const FLOWS = POOL_THRESHOLD / 2;

const flow = (example: unknown, q: Record<string, unknown> = { type: "string" }) => ({
  input: { type: "object", properties: { q } },
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
  // Run from sources, flowgen starts no worker threads: this pool runs their tasks on this thread,
  // so the deferred checks take the path they take on a worker.
  const workers = { start: () => Promise.resolve(inThreadPool()), close: () => Promise.resolve() };
  const options = { cwd: dir, config: false as const, ...(rules ? { rules } : {}) };
  const result = await generateKeepingWorkers(options, workers);
  return {
    issues: result.ok ? [] : sortIssues(result.issues).map(formatIssue),
    warnings: sortIssues(result.warnings ?? []).map(formatIssue),
  };
}

describe("value and example checks a large run defers to its worker threads", () => {
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

  it("still refuse a flow's enum or default value its schema rejects, and write nothing", async () => {
    const q = { type: "string", enum: ["a", 7], default: "b" };
    const dir = await project({ "specs/@acme/flow-4.json": flow({ q: "a" }, q) });
    const expected = [
      "specs/@acme/flow-4.json:9:11 #/input/properties/q/enum/1: this enum value fails its own schema: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      'specs/@acme/flow-4.json:11:9 #/input/properties/q/default: this default value fails its own schema: must be equal to one of the allowed values ("a", 7); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value',
    ];
    expect((await issuesOf(dir)).issues).toEqual(expected);
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
    expect((await issuesOf(dir)).issues).toEqual(expected);
  });

  it("refuse a shared file's value its schema rejects", async () => {
    const dir = await project({
      "specs/_shared/size.json": { type: "string", enum: ["s", "m"], default: "xl" },
      "specs/@acme/flow-4.json": flow({ q: "s" }, { $ref: "../_shared/size.json" }),
    });
    const { issues } = await issuesOf(dir);
    expect(
      issues.map((line) => line.split(" #")[0] + " " + /\[([a-z-]+)\]/.exec(line)?.[1]),
    ).toEqual(["specs/_shared/size.json:7:3 invalid-schema-value"]);
  });
});
