import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** A fresh folder holding `files` (path → text, bytes or JSON value), removed when the test ends. */
export async function tempProject(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "flowgen-test-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await writeFiles(dir, files);
  return dir;
}

/**
 * A project folder made once for the tests of a file, by `make` on the first call, and removed
 * after them: for a fixture (a generated project, say) that tests only read, or change in a copy
 * of their own (`copyProject`). Call it at the top of the file or of a describe block.
 *
 * @example
 * const generated = sharedProject(async (dir) => void (await generate({ cwd: dir })));
 * const dir = await copyProject(await generated());
 */
export function sharedProject(make: (dir: string) => Promise<void>): () => Promise<string> {
  let dir: string | undefined;
  let made: Promise<string> | undefined;
  afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));
  return () =>
    (made ??= (async () => {
      dir = await mkdtemp(path.join(tmpdir(), "flowgen-test-"));
      await make(dir);
      return dir;
    })());
}

/** A fresh copy of the project folder `source` (all of it: output, render cache), removed when the test ends. */
export async function copyProject(source: string): Promise<string> {
  const dir = await tempProject({});
  await cp(source, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, unknown>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      typeof content === "string" || content instanceof Uint8Array
        ? content
        : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
}

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
