import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ISSUE_CODES } from "../src/issues.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

describe("docs/errors.md", () => {
  it("documents exactly the problem codes flowgen has, in the same order", async () => {
    const text = await readFile(path.join(REPO_ROOT, "docs/errors.md"), "utf8");
    const documented = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(documented).toEqual(Object.keys(ISSUE_CODES));
  });
});
