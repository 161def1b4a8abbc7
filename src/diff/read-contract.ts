import { mkdtemp, mkdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { compileOpenApi } from "../compile/openapi-document.js";
import { isPlainObject } from "../json-pointer.js";
import type { Issue, Rules } from "../issues.js";
import { buildModel } from "../model/build-model.js";
import { projectBoundary, staysInside } from "../project-boundary.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import { GitError, readGitFolder, runGit } from "./git-files.js";

/** One side of a comparison: an OpenAPI document, or the problems that kept flowgen from making one. */
export type ContractSource =
  | { readonly ok: true; readonly document: unknown; readonly label: string }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** A version that cannot be read: an unknown ref, not a repository, not an OpenAPI document. */
export class ContractSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractSourceError";
  }
}

export interface ContractLocation {
  readonly cwd: string;
  /** The specs folder, relative to `cwd`; at a git ref, the same path in that commit. */
  readonly specs: string;
  /** The output folder: at a git ref without specs, its openapi.json is used. */
  readonly out: string;
  /** Severities of the spec checks (the config file's `rules`), as generate has them. */
  readonly rules?: Rules | undefined;
}

/**
 * Reads one version of the contract. `version` is a folder of specs, an output folder (its
 * openapi.json), an OpenAPI file (JSON or YAML), or a git ref whose specs folder is compiled by this flowgen (its committed
 * `<out>/openapi.json` when it has no specs folder, or specs this flowgen rejects); undefined for
 * the specs in the working tree.
 * A path that exists wins over a ref of the same name.
 *
 * @example
 * const base = await readContract("HEAD", { cwd: process.cwd(), specs: "specs", out: "generated" });
 */
export async function readContract(
  version: string | undefined,
  where: ContractLocation,
): Promise<ContractSource> {
  if (version === undefined)
    return compileContract(where.specs, where, shown(where.cwd, where.specs));
  const local = path.resolve(where.cwd, version);
  const found = await stat(local).catch(() => undefined);
  if (found?.isDirectory()) {
    // An output folder (`generated`) holds its contract; a specs folder never has an openapi.json at its root.
    const contract = path.join(local, "openapi.json");
    if (
      await stat(contract).then(
        (entry) => entry.isFile(),
        () => false,
      )
    )
      return {
        ok: true,
        document: await readOpenApiFile(contract, `${version}/openapi.json`, where.cwd),
        label: shown(where.cwd, contract),
      };
    return compileContract(version, where, shown(where.cwd, version), "--base");
  }
  if (found?.isFile())
    return {
      ok: true,
      document: await readOpenApiFile(local, version, where.cwd),
      label: shown(where.cwd, version),
    };
  return readGitContract(version, where);
}

/** The contract a specs folder compiles to; `flag` is the option that named the folder. */
async function compileContract(
  specs: string,
  where: Pick<ContractLocation, "cwd" | "rules">,
  label: string,
  flag = "--specs",
): Promise<ContractSource> {
  const { checkSpecs } = await import("../spec/load-specs.js");
  const checked = checkSpecs(await readSpecFiles(specs, where.cwd, flag), { rules: where.rules });
  if (!checked.ok) return checked;
  const model = buildModel(checked.specs);
  return { ok: true, document: compileOpenApi(model, model.flows, { baseUrl: undefined }), label };
}

async function readOpenApiFile(file: string, display: string, cwd: string): Promise<unknown> {
  // A file in the project (generated/openapi.json) that links out of it is not read.
  if (!(await staysInside(file, projectBoundary(file, cwd))))
    throw new ContractSourceError(
      `${display} leads out of the project through a symlink; flowgen reads only inside the project: pass the file itself`,
    );
  const text = await readFile(file, "utf8");
  let document: unknown;
  try {
    document = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch {
    // The parsers' own messages quote the text, which may not be an OpenAPI document at all.
    throw new ContractSourceError(
      `${display} is not valid ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}; pass an OpenAPI document, a specs folder or a git ref`,
    );
  }
  if (!isPlainObject(document) || !isPlainObject(document.paths)) {
    throw new ContractSourceError(
      `${display} is not an OpenAPI document (it has no "paths"); pass flowgen's openapi.json, a specs folder or a git ref`,
    );
  }
  return document;
}

async function readGitContract(ref: string, where: ContractLocation): Promise<ContractSource> {
  const root = await gitRoot(where.cwd, ref);
  await runGit(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(() => {
    throw new ContractSourceError(
      `"${ref}" is neither a file, a folder nor a git commit; pass --base a branch, tag or commit, an openapi.json or a specs folder`,
    );
  });
  const cwd = await realpath(where.cwd);
  const specs = path.relative(root, path.resolve(cwd, where.specs)).split(path.sep).join("/");
  const { files, problems } = await readGitFolder(
    root,
    ref,
    specs || ".",
    projectAt(root, cwd, where.specs),
  );
  const compiled =
    files.size > 0 ? await compileGitSpecs(ref, specs, files, where.rules) : undefined;
  // A link refused at the ref is refused as in the working tree: no committed contract stands in.
  if (problems.length > 0) {
    const refused = problems.map(({ path: file, code, message }) => ({
      code,
      file: `${ref}:${file}`,
      message,
    }));
    return { ok: false, issues: [...refused, ...(compiled?.ok === false ? compiled.issues : [])] };
  }
  if (compiled?.ok) return compiled;
  const openapi = path
    .relative(root, path.resolve(cwd, where.out, "openapi.json"))
    .split(path.sep)
    .join("/");
  const committed = await runGit(root, ["cat-file", "blob", `${ref}:${openapi}`]).catch(
    () => undefined,
  );
  // Specs an older flowgen accepted may break a rule this one added: the contract committed with them still tells what callers had.
  if (committed === undefined && compiled !== undefined) return compiled;
  if (committed === undefined)
    throw new ContractSourceError(
      `${ref} has neither ${specs}/ nor ${openapi}; pass --base a commit that has them, or --specs the folder the specs were in`,
    );
  const label = `${ref}:${openapi}`;
  try {
    return { ok: true, document: JSON.parse(committed.toString("utf8")), label };
  } catch {
    throw new ContractSourceError(`${label} is not valid JSON; pass another --base`);
  }
}

/**
 * The project of the specs folder (the folder holding package.json or .git, as the working tree
 * finds it), from the repository's root: links at a ref may lead anywhere inside it. The whole
 * repository when the project is not inside it.
 */
function projectAt(root: string, cwd: string, specs: string): string {
  const project = path.relative(root, projectBoundary(path.resolve(cwd, specs), cwd));
  if (project.startsWith("..") || path.isAbsolute(project)) return "";
  return project.split(path.sep).join("/");
}

async function gitRoot(cwd: string, ref: string): Promise<string> {
  try {
    return await realpath(
      (await runGit(cwd, ["rev-parse", "--show-toplevel"])).toString("utf8").trim(),
    );
  } catch (error) {
    if (error instanceof GitError)
      throw new ContractSourceError(
        `"${ref}" is not a file or folder, and ${cwd} is not in a git repository to read it as a ref from (${error.message})`,
      );
    throw error;
  }
}

/** The specs at `ref` go to a temporary folder, laid out as in the repository, and are checked and compiled from there. */
async function compileGitSpecs(
  ref: string,
  specs: string,
  files: ReadonlyMap<string, string>,
  rules: Rules | undefined,
): Promise<ContractSource> {
  const temp = await mkdtemp(path.join(tmpdir(), "flowgen-diff-"));
  try {
    for (const [file, text] of files) {
      const target = path.join(temp, ...file.split("/"));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
    const compiled = await compileContract(specs, { cwd: temp, rules }, `${ref}:${specs}`);
    if (compiled.ok) return compiled;
    return {
      ok: false,
      issues: compiled.issues.map((issue) => ({ ...issue, file: `${ref}:${issue.file}` })),
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

function shown(cwd: string, target: string): string {
  return path.relative(cwd, path.resolve(cwd, target)).split(path.sep).join("/") || ".";
}
