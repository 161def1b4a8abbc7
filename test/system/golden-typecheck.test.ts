import path from "node:path";
import { describe, expect, it } from "vitest";
import { GOLDEN, goldenCases } from "../helpers/golden-cases.js";
import { tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";

describe("golden output, compiled", async () => {
  const cases = await goldenCases();

  it.each(cases)(
    "%s: the expected tree type-checks under NodeNext and Bundler",
    async (name) => {
      for (const resolution of ["NodeNext", "Bundler"] as const) {
        const dir = await tempProject({});
        expect(
          await typecheck(dir, path.join(GOLDEN, name, "expected"), "export {};\n", resolution),
        ).toBe("");
      }
    },
    60_000,
  );
});
