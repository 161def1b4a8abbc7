import { randomBytes } from "node:crypto";
import { link, lstat, mkdir, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { isInside, resolveReal } from "../project-boundary.js";
import { readRegularFile } from "../read-text-files.js";

const SECRET_NAME = "render-cache.key";

/**
 * Where this machine's secret lives: `$XDG_CACHE_HOME/flowgen`, else `~/.cache/flowgen`. It is
 * the user's, outside every project, so nothing a repository holds can be it or replace it.
 *
 * @example
 * secretFile(); // "/home/me/.cache/flowgen/render-cache.key"
 */
export function secretFile(): string {
  const base = process.env["XDG_CACHE_HOME"] || path.join(homedir(), ".cache");
  return path.join(path.resolve(base), "flowgen", SECRET_NAME);
}

/**
 * This machine's secret for authenticating the render cache, made on first use (32 random bytes,
 * readable by the user only). Undefined when it cannot be had, or when it would lie inside
 * `project` (a home folder that is the project): a secret a repository can hold is none, and the
 * cache is then not reused across runs.
 *
 * @example
 * const secret = await readMachineSecret("/home/me/app");
 */
export async function readMachineSecret(project: string): Promise<string | undefined> {
  const file = secretFile();
  if (isInside(await resolveReal(file), await resolveReal(project))) return undefined;
  try {
    return (await readSecret(file)) ?? (await createSecret(file));
  } catch {
    return undefined;
  }
}

async function readSecret(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined) return undefined;
  // Others who can read it could forge cache entries: such a file is not trusted, nor replaced.
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0)
    throw new Error(`${file} is readable by others`);
  const text = (await readRegularFile(file))?.trim();
  if (text === undefined || !/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is damaged`);
  return text;
}

/** Written to a file of its own, then linked into place: of two runs making it at once, one wins and both read it. */
async function createSecret(file: string): Promise<string | undefined> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(temporary, { force: true });
  }
  return readSecret(file);
}
