import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import { resolveGenerateSettings, type GenerateSettings } from "../config/resolve-settings.js";
import { addScripts, configFileText, gitattributesText } from "../scaffold/project-files.js";
import { schemaRef, specSkeleton, writeSpecFile } from "../scaffold/spec-skeleton.js";
import { triageIssues, withCode, type Issue } from "../issues.js";
import { checkRuntimeDependency } from "../scaffold/runtime-dependency.js";
import { findLinksOut, jsonSyntaxProblem, readOptionalText } from "../scaffold/project-text.js";
import { findProjectRoot, isInside, projectBoundary } from "../project-boundary.js";
import { findFileInOutputPlace } from "../api/output-place.js";
import { findFileInSpecsPlace } from "../spec/read-spec-files.js";
import { EXIT, reportIssues, reportWarnings, type Command, type Io } from "./command.js";
import { findInitProject } from "./init-project.js";
import { choosePaint, type Paint } from "./terminal.js";

const EXAMPLE_FLOW = { org: "example", name: "hello" } as const;

/** `flowgen init`: a config file, an example spec, npm scripts and .gitattributes in the project the working directory is in. */
export const initCommand: Command = {
  usage: "init",
  describe:
    "Set flowgen up in this project: flowgen.config.ts, an example spec, npm scripts, and .gitattributes marking the output as generated",
  options: {
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    out: { type: "string", defaultDescription: "generated", describe: "Output folder" },
  },
  examples: [["$0 init", "Then: npm run flowgen:generate"]],
  async run(given, { cwd: here, io, terminal, env }) {
    const paint = choosePaint(terminal, env);
    const { project: cwd, args } = findInitProject(here, given);
    if (cwd !== here)
      io.out(
        `flowgen init: setting up the project at ${path.relative(here, cwd).split(path.sep).join("/")} (the folder holding its package.json); paths below are from there`,
      );
    const summary = (count: string): string => `flowgen init: ${count}; nothing was written.`;
    const resolved = await readInitSettings(args, cwd);
    if (!resolved.ok) return reportIssues(io, resolved.issues, summary);
    const { configFile, settings } = resolved;
    // Before the first write: a file where a folder goes would stop init half-way, or generate later.
    const blocked = findFilesInFolderPlaces(cwd, settings);
    if (blocked.length > 0) return reportIssues(io, blocked, summary);
    // Every file init reads or writes, checked before the first write: nothing through a link out.
    const linksOut = await findLinksOut(cwd, projectBoundary(cwd, cwd), [
      "package.json",
      ".gitattributes",
      "flowgen.config.ts",
      "flowgen.config.mts",
      settings.specs,
    ]);
    if (linksOut.length > 0) return reportIssues(io, linksOut, summary);
    const manifest = await readOptionalText(path.join(cwd, "package.json"));
    const invalid = describeInvalidManifest(manifest);
    if (invalid !== undefined) {
      io.err(invalid);
      return EXIT.invalid;
    }
    const done = [
      await writeConfigFile(cwd, configFile, manifest, settings),
      await writeExampleSpec(cwd, settings.specs),
      await writeScripts(cwd, manifest),
      await markOutputGenerated(cwd, settings.out),
    ];
    for (const line of done) if (line !== undefined) io.out(`flowgen init: ${line}`);
    await printNextSteps(io, cwd, settings, paint);
    return EXIT.ok;
  },
};

/** The config file found (if any) and the settings, with --specs and --out over the file's. */
async function readInitSettings(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
): Promise<
  | { ok: true; configFile: string | undefined; settings: GenerateSettings }
  | { ok: false; issues: readonly Issue[] }
> {
  const found = await loadConfig(cwd, args["config"] as string | undefined);
  if (!found.ok) return found;
  // A workspace's root config is kept for the root; a package being set up gets a config of its own.
  const loaded = servesPackage(found, cwd, args["config"] !== undefined)
    ? found
    : { ...found, config: {}, file: undefined, root: cwd };
  const given = {
    specs: args["specs"] as string | undefined,
    out: args["out"] as string | undefined,
  };
  const resolved = resolveGenerateSettings(loaded, cwd, given);
  if (!resolved.ok) return resolved;
  if (loaded.file !== undefined) {
    // The config is kept: a folder flag it does not name would put files where generate never looks.
    const kept = resolveGenerateSettings(loaded, cwd, {});
    if (!kept.ok) return kept;
    const issues = (["specs", "out"] as const).flatMap((flag): Issue[] => {
      const wanted = given[flag];
      if (wanted === undefined) return [];
      const configured = kept.settings[flag];
      if (path.resolve(cwd, wanted) === path.resolve(cwd, configured)) return [];
      const file = path
        .relative(cwd, loaded.file ?? "")
        .split(path.sep)
        .join("/");
      return [
        {
          code: "invalid-option",
          file: `--${flag}`,
          message: `${file} keeps its ${flag} folder, ${configured}, which generate uses; change "${flag}" in ${file}, or run flowgen init without --${flag}`,
        },
      ];
    });
    if (issues.length > 0) return { ok: false, issues };
  }
  return { ok: true, configFile: loaded.file, settings: resolved.settings };
}

/**
 * Whether a config found serves the package being set up: it lies in the package, or was named
 * with --config, or (a workspace's root config) its specs or output folder lie in the package.
 */
function servesPackage(
  found: Extract<LoadedConfig, { ok: true }>,
  cwd: string,
  named: boolean,
): boolean {
  if (found.file === undefined || named) return true;
  const project = findProjectRoot(cwd) ?? cwd;
  if (isInside(found.file, project)) return true;
  const settings = resolveGenerateSettings(found, cwd, {});
  return (
    settings.ok &&
    [settings.settings.specs, settings.settings.out].some((folder) =>
      isInside(path.resolve(cwd, folder), project),
    )
  );
}

/** A file standing where the specs folder or the output folder (or a folder on their way) goes. */
function findFilesInFolderPlaces(cwd: string, { specs, out }: GenerateSettings): Issue[] {
  return [
    findFileInSpecsPlace(path.resolve(cwd, specs), cwd, specs),
    findFileInOutputPlace(path.resolve(cwd, out), out, cwd),
  ].filter((issue) => issue !== undefined);
}

/** The error line for a package.json that is not JSON, where it fails when known; undefined for none or a valid one. */
function describeInvalidManifest(manifest: string | undefined): string | undefined {
  const syntax = manifest === undefined ? undefined : jsonSyntaxProblem(manifest);
  if (syntax === undefined && parsesAsJson(manifest)) return undefined;
  const where = syntax === undefined ? "" : ` at line ${syntax.line}, column ${syntax.column}`;
  return withCode(
    `flowgen init: package.json is not valid JSON${where}; fix it and run flowgen init again; nothing was written.`,
    "syntax-error",
  );
}

/** Writes a config file unless the project has one; says which. */
async function writeConfigFile(
  cwd: string,
  configFile: string | undefined,
  manifest: string | undefined,
  { specs, out }: GenerateSettings,
): Promise<string> {
  if (configFile !== undefined) return `kept ${path.relative(cwd, configFile)}`;
  const name = configFileName(manifest);
  await writeFile(path.join(cwd, name), configFileText({ specs, out }), { flag: "wx" });
  return `created ${name}`;
}

/** Writes the example spec unless the specs folder has specs already; says which. */
async function writeExampleSpec(cwd: string, specs: string): Promise<string> {
  const specsDir = path.resolve(cwd, specs);
  if (await hasSpecs(specsDir)) return `kept ${specs}/ (it has specs already)`;
  const file = path.join(specsDir, `@${EXAMPLE_FLOW.org}`, `${EXAMPLE_FLOW.name}.json`);
  await writeSpecFile(
    file,
    specSkeleton({
      flowId: `@${EXAMPLE_FLOW.org}/${EXAMPLE_FLOW.name}`,
      schema: schemaRef(file, cwd),
    }),
  );
  return `created ${path.relative(cwd, file).split(path.sep).join("/")} (an example flow)`;
}

/** Adds the flowgen scripts to package.json (creating it when there is none); says what it did. */
async function writeScripts(cwd: string, manifest: string | undefined): Promise<string> {
  const scripts = addScripts(
    manifest,
    path
      .basename(cwd)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-"),
  );
  if (scripts.added.length > 0 || manifest === undefined)
    await writeFile(path.join(cwd, "package.json"), scripts.text);
  return scripts.added.length > 0
    ? `${manifest === undefined ? "created package.json with" : "added to package.json"} the scripts ${scripts.added.join(", ")}`
    : "kept the package.json scripts";
}

/** Marks the output folder in .gitattributes as generated, with LF line ends; undefined when it already was. */
async function markOutputGenerated(cwd: string, out: string): Promise<string | undefined> {
  // A pattern in .gitattributes is relative to its folder, without "./": git matches no other.
  const relative = path.relative(cwd, path.resolve(cwd, out)).split(path.sep).join("/");
  if (
    relative === "" ||
    relative.startsWith("../") ||
    relative === ".." ||
    path.isAbsolute(relative)
  )
    return undefined;
  const attributesFile = path.join(cwd, ".gitattributes");
  const attributes = await readOptionalText(attributesFile);
  const nextAttributes = gitattributesText(attributes, relative);
  if (nextAttributes === attributes) return undefined;
  await writeFile(attributesFile, nextAttributes);
  return `marked ${relative}/ in .gitattributes as generated, checked out with LF line ends`;
}

/** Warns about a missing runtime dependency and says what to run next. */
async function printNextSteps(
  io: Io,
  cwd: string,
  { out, rules }: GenerateSettings,
  paint: Paint,
): Promise<void> {
  // The generated clients run on openapi-fetch: a dependency of the project, not a dev dependency.
  const dependency = triageIssues(await checkRuntimeDependency(cwd, path.resolve(cwd, out)), rules);
  reportWarnings(io, [...dependency.errors, ...dependency.warnings], paint);
  if (!existsSync(path.join(cwd, "node_modules", "flowgen-cli")))
    io.out("Next: npm install -D flowgen-cli");
  io.out(
    "Next: npm run flowgen:generate (or flowgen:watch), then import the clients from the output folder.",
  );
}

/** Whether `text` is absent or JSON.parse reads it (jsonc-parser may miss a corner it refuses). */
function parsesAsJson(text: string | undefined): boolean {
  if (text === undefined) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function hasSpecs(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return false;
  const entries = await readdir(dir, { recursive: true });
  return entries.some((entry) => /\.(json|ya?ml)$/.test(entry));
}

/**
 * `flowgen.config.ts` in an ES module package (and a new one, which init makes one);
 * `flowgen.config.mts` in a CommonJS package (`npm init -y` writes `"type": "commonjs"`), where
 * TypeScript with `verbatimModuleSyntax` (`tsc --init` sets it) refuses the config's `import` and
 * `export default` in a `.ts` file: a `.mts` file is an ES module wherever it is.
 */
function configFileName(manifest: string | undefined): string {
  if (manifest === undefined) return "flowgen.config.ts";
  try {
    const { type } = JSON.parse(manifest) as { type?: unknown };
    return type === "module" ? "flowgen.config.ts" : "flowgen.config.mts";
  } catch {
    return "flowgen.config.ts";
  }
}
