import { spawn } from "node:child_process";

/** A git command that failed: what git said, for a message. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

/** Runs git in `cwd` and returns its stdout; rejects with git's own words on a non-zero exit. */
export function runGit(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) =>
      reject(
        new GitError(
          `cannot run git (${error.message}); install git, or pass a file or folder instead of a git ref`,
        ),
      ),
    );
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new GitError(
            Buffer.concat(err).toString("utf8").trim() || `git ${args[0]} exited with ${code}`,
          ),
        );
    });
    child.stdin.end(input);
  });
}

/**
 * Every file under `folder` (relative to the repository root) at `ref`, read in one
 * `git cat-file --batch` (git-cat-file(1), BATCH OUTPUT) rather than one process per file.
 * Paths come back relative to the repository root; symlinks and submodules are skipped.
 *
 * @example
 * const files = await readGitFolder("/repo", "HEAD~1", "specs"); // Map { "specs/@acme/qa.json" => "{…}" }
 */
export async function readGitFolder(
  root: string,
  ref: string,
  folder: string,
): Promise<Map<string, string>> {
  const listing = (
    await runGit(root, ["ls-tree", "-r", "-z", "--full-tree", ref, "--", folder])
  ).toString("utf8");
  const blobs = listing
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => {
      const [meta = "", filePath = ""] = line.split("\t");
      const [mode, type, oid] = meta.split(" ");
      return { mode, type, oid, filePath };
    })
    .filter((entry) => entry.type === "blob" && entry.mode !== "120000");
  if (blobs.length === 0) return new Map();
  const output = await runGit(
    root,
    ["cat-file", "--batch"],
    blobs.map((blob) => `${blob.oid}\n`).join(""),
  );
  const files = new Map<string, string>();
  let offset = 0;
  for (const blob of blobs) {
    const headerEnd = output.indexOf(10, offset);
    const size = Number(output.toString("utf8", offset, headerEnd).split(" ")[2]);
    files.set(blob.filePath, output.toString("utf8", headerEnd + 1, headerEnd + 1 + size));
    offset = headerEnd + 1 + size + 1;
  }
  return files;
}
