import { readdir } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "./temp-dir.js";

/** The golden cases' folder: each case holds `specs/` and the `expected/` tree they render to. */
export const GOLDEN = path.join(REPO_ROOT, "test/golden");

/** The names of the golden cases, one per folder of `test/golden/`. */
export async function goldenCases(): Promise<string[]> {
  return (await readdir(GOLDEN, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}
