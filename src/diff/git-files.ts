import { spawn } from "node:child_process";
import {
  followLinks,
  LINK_MODE,
  type LinkProblem,
  type RefTree,
  type TreeEntry,
} from "./git-links.js";

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
 * Paths come back relative to the repository root. A symlink is read as the working tree reads
 * it (`followLinks`): a link to a file or folder inside `project` (from the repository's root, ""
 * for the root) as its target's content at `ref`; a link leading out of it, nowhere or into a
 * folder holding it is a problem, never skipped in silence. Submodules are not in the tree.
 *
 * @example
 * const { files } = await readGitFolder("/repo", "HEAD~1", "specs"); // Map { "specs/@acme/qa.json" => "{…}" }
 */
export async function readGitFolder(
  root: string,
  ref: string,
  folder: string,
  project = "",
): Promise<{ files: Map<string, string>; problems: LinkProblem[] }> {
  const listed = await listGitTree(root, ref, folder);
  const files = listed.filter((entry) => entry.type === "blob" && entry.mode !== LINK_MODE);
  const prefix = folder === "." ? "" : `${folder}/`;
  // As in the working tree, a dot-file or what lies in a dot-folder is no spec, link or not.
  const links = listed.filter(
    (entry) =>
      entry.mode === LINK_MODE &&
      !entry.path
        .slice(prefix.length)
        .split("/")
        .some((part) => part.startsWith(".")),
  );
  const linked =
    links.length === 0
      ? { files: [], problems: [] }
      : followLinks(await readRefTree(root, ref, project, links), links);
  const wanted = [...files, ...linked.files];
  const texts = await readGitBlobs(root, [...new Set(wanted.map((entry) => entry.oid))]);
  return {
    files: new Map(wanted.map((entry) => [entry.path, texts.get(entry.oid) ?? ""])),
    problems: linked.problems,
  };
}

/** The project's entries at `ref` (folders too), and the text of every link among them and `links`. */
async function readRefTree(
  root: string,
  ref: string,
  project: string,
  links: readonly TreeEntry[],
): Promise<RefTree> {
  const listed = await listGitTree(root, ref, project === "" ? "." : project, { folders: true });
  const linkOids = [...listed, ...links]
    .filter((entry) => entry.mode === LINK_MODE)
    .map((entry) => entry.oid);
  return {
    entries: new Map(listed.map((entry) => [entry.path, entry])),
    linkTexts: await readGitBlobs(root, [...new Set(linkOids)]),
    project,
    root,
  };
}

/** The entries under `folder` at `ref`, recursively: files and links, and with `folders` the folders too. */
async function listGitTree(
  root: string,
  ref: string,
  folder: string,
  options: { readonly folders?: boolean } = {},
): Promise<TreeEntry[]> {
  const flags = options.folders === true ? ["-r", "-t"] : ["-r"];
  const listing = (
    await runGit(root, ["ls-tree", ...flags, "-z", "--full-tree", ref, "--", folder])
  ).toString("utf8");
  return listing
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode = "", type = "", oid = ""] = line.slice(0, tab).split(" ");
      return { mode, type, oid, path: line.slice(tab + 1) };
    });
}

/** The texts of the blobs `oids`, by id, read in one `git cat-file --batch`. */
async function readGitBlobs(root: string, oids: readonly string[]): Promise<Map<string, string>> {
  if (oids.length === 0) return new Map();
  const output = await runGit(
    root,
    ["cat-file", "--batch"],
    oids.map((oid) => `${oid}\n`).join(""),
  );
  const texts = new Map<string, string>();
  let offset = 0;
  for (const oid of oids) {
    const headerEnd = output.indexOf(10, offset);
    const size = Number(output.toString("utf8", offset, headerEnd).split(" ")[2]);
    texts.set(oid, output.toString("utf8", headerEnd + 1, headerEnd + 1 + size));
    offset = headerEnd + 1 + size + 1;
  }
  return texts;
}
