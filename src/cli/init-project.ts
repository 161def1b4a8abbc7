import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The flags of `flowgen init` that name a path, relative to the working directory. */
const PATH_FLAGS = ["specs", "out", "config"] as const;

/**
 * The folder `flowgen init` sets up: the package the working directory is in (the nearest folder
 * at or above it holding package.json), where generate finds the config and the package.json that
 * says how .js files load, else the working directory. Run from `src/app`, init must not make
 * `src/app/package.json`: it would end the config lookup there and turn the .js files below into ES
 * modules. A package.json in the home folder or at the filesystem's root (a stray `npm install`)
 * is no project's, and a repository without one is not a package: there the working directory is
 * set up. The path flags, given from the working directory, are made relative to the project.
 *
 * @example
 * findInitProject("/app/src/ui", { out: "generated" }); // { project: "/app", args: { out: "src/ui/generated" } }
 */
export function findInitProject(
  cwd: string,
  args: Readonly<Record<string, unknown>>,
): { project: string; args: Readonly<Record<string, unknown>> } {
  const project = findPackageFolder(cwd) ?? cwd;
  if (project === path.resolve(cwd)) return { project: cwd, args };
  const rebased: Record<string, unknown> = { ...args };
  for (const flag of PATH_FLAGS) {
    const value = args[flag];
    if (typeof value !== "string") continue;
    const relative = path.relative(project, path.resolve(cwd, value)).split(path.sep).join("/");
    rebased[flag] = relative === "" ? "." : relative;
  }
  return { project, args: rebased };
}

/** The nearest folder at or above `dir` holding package.json, but for the home folder and the root. */
function findPackageFolder(dir: string): string | undefined {
  const home = path.resolve(homedir());
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const top = path.dirname(current) === current;
    if (top || current === home) return undefined;
    // The output folder's own package.json (beside its manifest) marks its module format only.
    const manifest = existsSync(path.join(current, ".flowgen-manifest.json"));
    if (!manifest && existsSync(path.join(current, "package.json"))) return current;
  }
}
