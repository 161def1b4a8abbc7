import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./temp-dir.js";

const run = promisify(execFile);

/** Where packed tarballs are kept between runs: beside the render cache, ignored by git. */
const CACHE = path.join(REPO_ROOT, "node_modules/.cache/flowgen-test");

/**
 * Installs prettier `version` into `projectDir`/node_modules/prettier, as `npm install` would, from
 * a tarball packed once per machine with `npm pack` (npm's own cache, else the registry) and kept in
 * node_modules/.cache: later runs need no network and take a moment. Not a devDependency of
 * flowgen: a second prettier there would fight flowgen's own over the `prettier` bin.
 *
 * @example
 * await installPrettier(dir, "3.0.3");
 */
export async function installPrettier(projectDir: string, version: string): Promise<void> {
  const tarball = path.join(CACHE, `prettier-${version}.tgz`);
  if (!existsSync(tarball)) {
    await mkdir(CACHE, { recursive: true });
    // Packed into a folder of its own, then renamed into place: two test files may pack at once.
    const staging = await mkdtemp(path.join(CACHE, "pack-"));
    try {
      await run("npm", ["pack", `prettier@${version}`, "--pack-destination", staging, "--silent"]);
      const [packed] = await readdir(staging);
      if (packed === undefined) throw new Error(`npm pack prettier@${version} wrote nothing`);
      await rename(path.join(staging, packed), tarball);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  const target = path.join(projectDir, "node_modules/prettier");
  await mkdir(target, { recursive: true });
  await run("tar", ["xzf", tarball, "-C", target, "--strip-components=1"]);
}
