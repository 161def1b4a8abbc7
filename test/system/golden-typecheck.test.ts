import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";

const GOLDEN = path.join(REPO_ROOT, "test/golden");

describe("golden output, compiled", async () => {
  const cases = (await readdir(GOLDEN, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

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
