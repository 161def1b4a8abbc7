import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Issue } from "../issues.js";
import { findPackageFolder, projectBoundary, staysInside } from "../project-boundary.js";

/** The package generated clients import at run time. */
const RUNTIME_PACKAGE = "openapi-fetch";

/** Fields of package.json whose packages an install for production keeps. */
const RUN_TIME_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"] as const;

/**
 * Whether the package the output folder lies in has openapi-fetch as a dependency of its own.
 * Generated clients import it; until then it may still resolve (through flowgen's own copy, a dev
 * dependency's), and then fail at run time with `ERR_MODULE_NOT_FOUND` after `npm prune
 * --omit=dev` or in a production image. The package is the nearest folder at or above the output
 * folder's parent with a package.json. Returns a `missing-dependency` problem naming the command
 * that fixes it (with the package manager the lockfile shows); none when it is there, or when
 * there is no package.json to say it in.
 *
 * @example
 * const found = await checkRuntimeDependency("/app", "/app/generated");
 */
export async function checkRuntimeDependency(cwd: string, outDir: string): Promise<Issue[]> {
  const boundary = projectBoundary(outDir, cwd);
  const root = findPackageFolder(path.dirname(path.resolve(outDir)), boundary);
  if (root === undefined) return [];
  const file = path.join(root, "package.json");
  // Read from inside the project only, as every file flowgen reads: never through a link out of it.
  if (!(await staysInside(file, boundary))) return [];
  const manifest = await readFile(file, "utf8").then(
    (text) => JSON.parse(text) as unknown,
    () => undefined,
  );
  if (!isRecord(manifest)) return [];
  const listed = (field: string) => {
    const entries = manifest[field];
    return isRecord(entries) && Object.hasOwn(entries, RUNTIME_PACKAGE);
  };
  if (RUN_TIME_FIELDS.some(listed)) return [];
  const display = path.relative(cwd, file).split(path.sep).join("/") || "package.json";
  const install = installCommand(root);
  const message = listed("devDependencies")
    ? `${RUNTIME_PACKAGE} is a dev dependency, but the generated clients import it at run time: an install for production (npm prune --omit=dev, npm ci --omit=dev) leaves it out and the clients fail with ERR_MODULE_NOT_FOUND. Make it a dependency: ${install}`
    : `${RUNTIME_PACKAGE} is not a dependency of this package, but the generated clients import it at run time; it may resolve now through another package's copy and then fail with ERR_MODULE_NOT_FOUND. Add it: ${install}`;
  return [{ code: "missing-dependency", file: display, pointer: "/dependencies", message }];
}

/** The command that adds openapi-fetch as a dependency, for the package manager whose lockfile is there. */
function installCommand(root: string): string {
  if (existsSync(path.join(root, "pnpm-lock.yaml"))) return `pnpm add ${RUNTIME_PACKAGE}`;
  if (existsSync(path.join(root, "yarn.lock"))) return `yarn add ${RUNTIME_PACKAGE}`;
  if (existsSync(path.join(root, "bun.lock")) || existsSync(path.join(root, "bun.lockb")))
    return `bun add ${RUNTIME_PACKAGE}`;
  return `npm install ${RUNTIME_PACKAGE}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
