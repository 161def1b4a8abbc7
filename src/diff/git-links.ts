import path from "node:path";
import type { IssueCode } from "../issues.js";
import { describeLinkLoop, describeLinkNowhere, describeLinkOut } from "../spec/find-spec-files.js";

/** The mode git records for a symlink: its blob holds the link's text. */
export const LINK_MODE = "120000";

/** One entry of a tree at a ref, as `git ls-tree` lists it. */
export interface TreeEntry {
  /** Path from the repository's root, forward slashes. */
  readonly path: string;
  readonly mode: string;
  /** "blob" (a file or a link), "tree" (a folder) or "commit" (a submodule). */
  readonly type: string;
  readonly oid: string;
}

/** What links at a ref resolve against: the project's entries, and the links' texts. */
export interface RefTree {
  /** Every entry of the project at the ref (folders too), by path from the repository's root. */
  readonly entries: ReadonlyMap<string, TreeEntry>;
  /** The text of each link, by its blob's id. */
  readonly linkTexts: ReadonlyMap<string, string>;
  /** The project's folder, from the repository's root ("" for the root itself). */
  readonly project: string;
  /** The repository's root on disk: an absolute link text is read relative to it. */
  readonly root: string;
}

/** A file a link stands for: where it appears (under the link's path) and its blob. */
export interface LinkedFile {
  readonly path: string;
  readonly oid: string;
}

/** A link that is not followed, and why: the problem the working tree gives for it. */
export interface LinkProblem {
  readonly path: string;
  readonly code: IssueCode;
  readonly message: string;
}

/** Links followed in a row before one counts as leading in a loop (Linux's own limit). */
const MAX_HOPS = 40;

type Resolved =
  | { readonly kind: "blob"; readonly path: string; readonly oid: string }
  | { readonly kind: "tree"; readonly path: string }
  | { readonly kind: "nowhere" }
  | { readonly kind: "outside" };

/**
 * The files `links` stand for at a ref, as the working tree reads them: a link to a file inside
 * the project is that file's content at the ref, a link to a folder its files (links in it
 * followed too), each placed under the link's path. A link leading out of the project, nowhere,
 * or into a folder holding it is a problem, with the working tree's words, and nothing behind it
 * is read.
 *
 * @example
 * const { files, problems } = followLinks(tree, [{ path: "specs/@acme/qa.json", oid }]);
 */
export function followLinks(
  tree: RefTree,
  links: readonly Pick<TreeEntry, "path" | "oid">[],
): { files: LinkedFile[]; problems: LinkProblem[] } {
  const found = { files: [] as LinkedFile[], problems: [] as LinkProblem[] };
  for (const link of links) followLink(tree, link, link.path, [], found);
  return found;
}

function followLink(
  tree: RefTree,
  link: Pick<TreeEntry, "path" | "oid">,
  shown: string,
  walking: readonly string[],
  found: { files: LinkedFile[]; problems: LinkProblem[] },
): void {
  const text = tree.linkTexts.get(link.oid) ?? "";
  const target = resolveLink(tree, link, 0);
  if (target.kind === "blob") found.files.push({ path: shown, oid: target.oid });
  else if (target.kind === "outside")
    found.problems.push({ path: shown, code: "outside-project", message: describeLinkOut(text) });
  else if (target.kind === "nowhere")
    found.problems.push({
      path: shown,
      code: "unreadable-file",
      message: describeLinkNowhere(text),
    });
  else if ([link.path, ...walking].some((folder) => isWithin(folder, target.path)))
    found.problems.push({ path: shown, code: "unreadable-file", message: describeLinkLoop() });
  else walkLinkedFolder(tree, target.path, shown, [...walking, target.path], found);
}

/** The files under a folder a link leads to, placed under the link's path `shown`. */
function walkLinkedFolder(
  tree: RefTree,
  folder: string,
  shown: string,
  walking: readonly string[],
  found: { files: LinkedFile[]; problems: LinkProblem[] },
): void {
  const prefix = folder === "" ? "" : `${folder}/`;
  for (const entry of tree.entries.values()) {
    if (!entry.path.startsWith(prefix) || entry.type !== "blob") continue;
    const placed = `${shown}/${entry.path.slice(prefix.length)}`;
    // As in the working tree: what lies in a dot-folder, or is a dot-file, is not a spec.
    if (
      entry.path
        .slice(prefix.length)
        .split("/")
        .some((part) => part.startsWith("."))
    )
      continue;
    if (entry.mode === LINK_MODE) followLink(tree, entry, placed, walking, found);
    else found.files.push({ path: placed, oid: entry.oid });
  }
}

/** Where the link at `link.path` leads at the ref, following links on the way. */
function resolveLink(tree: RefTree, link: Pick<TreeEntry, "path" | "oid">, hops: number): Resolved {
  const text = tree.linkTexts.get(link.oid);
  if (text === undefined || hops >= MAX_HOPS) return { kind: "nowhere" };
  const target = linkTarget(tree, link.path, text);
  if (target === undefined || !isWithin(target, tree.project)) return { kind: "outside" };
  return resolvePath(tree, target, hops + 1);
}

/** The path a link's text names, from the repository's root; undefined when it leaves the repository. */
function linkTarget(tree: RefTree, linkPath: string, text: string): string | undefined {
  const relative = path.isAbsolute(text)
    ? path.relative(tree.root, text).split(path.sep).join("/")
    : path.posix.join(path.posix.dirname(linkPath), text);
  const normal = path.posix.normalize(relative === "" ? "." : relative);
  if (normal === ".." || normal.startsWith("../") || path.isAbsolute(normal)) return undefined;
  return normal === "." ? "" : normal.replace(/\/+$/, "");
}

/** The entry at `target`, each link on its way followed; nowhere when a part is missing. */
function resolvePath(tree: RefTree, target: string, hops: number): Resolved {
  const parts = target === "" ? [] : target.split("/");
  let current = "";
  for (const [i, part] of parts.entries()) {
    current = current === "" ? part : `${current}/${part}`;
    const entry = tree.entries.get(current);
    if (entry === undefined) return { kind: "nowhere" };
    if (entry.mode !== LINK_MODE) continue;
    const through = resolveLink(tree, entry, hops);
    if (through.kind === "nowhere" || through.kind === "outside") return through;
    const rest = parts.slice(i + 1).join("/");
    if (rest === "") return through;
    return resolvePath(tree, through.path === "" ? rest : `${through.path}/${rest}`, hops + 1);
  }
  const entry = current === "" ? undefined : tree.entries.get(current);
  if (current === "" || entry?.type === "tree") return { kind: "tree", path: current };
  // A submodule (a commit) is not in this repository's tree: as in the working tree, nothing there.
  return entry?.type === "blob"
    ? { kind: "blob", path: current, oid: entry.oid }
    : { kind: "nowhere" };
}

/** Whether `file` is `folder` or lies below it (paths from the repository's root; "" is the root). */
function isWithin(file: string, folder: string): boolean {
  return folder === "" || file === folder || file.startsWith(`${folder}/`);
}
