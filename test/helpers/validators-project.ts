import path from "node:path";
import { renderProject } from "../../src/generate.js";
import { writeOutput } from "../../src/write/write-output.js";
import { REPO_ROOT } from "./temp-dir.js";

/** Generates the repo's specs with --validators into `dir`/generated; returns that folder. */
export async function generateWithValidators(dir: string): Promise<string> {
  const result = await renderProject({
    specs: path.join(REPO_ROOT, "specs"),
    out: "generated",
    cwd: dir,
    validators: true,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  await writeOutput(path.join(dir, "generated"), result.files);
  return path.join(dir, "generated");
}
