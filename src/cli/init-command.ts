import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import { addScripts, configFileText, gitattributesText } from "../scaffold/project-files.js";
import { schemaRef, specSkeleton, writeSpecFile } from "../scaffold/spec-skeleton.js";
import { triageIssues, withCode } from "../issues.js";
import { checkRuntimeDependency } from "../scaffold/runtime-dependency.js";
import { findLinksOut, jsonSyntaxProblem, readOptionalText } from "../scaffold/project-text.js";
import { projectBoundary } from "../project-boundary.js";
import { EXIT, reportIssues, reportWarnings, type Command } from "./command.js";
import { choosePaint } from "./terminal.js";

const EXAMPLE_FLOW = { org: "example", name: "hello" } as const;

/** `flowgen init`: a config file, an example spec, npm scripts and .gitattributes in the current project. */
export const initCommand: Command = {
  usage: "init",
  describe:
    "Set flowgen up in this project: flowgen.config.ts, an example spec, npm scripts, and .gitattributes marking the output as generated",
  options: {
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    out: { type: "string", defaultDescription: "generated", describe: "Output folder" },
  },
  examples: [["$0 init", "Then: npm run flowgen:generate"]],
  async run(args, { cwd, io, terminal, env }) {
    const paint = choosePaint(terminal, env);
    const loaded = await loadConfig(cwd, args["config"] as string | undefined);
    if (!loaded.ok)
      return reportIssues(
        io,
        loaded.issues,
        (count) => `flowgen init: ${count}; nothing was written.`,
      );
    const resolved = resolveGenerateSettings(loaded, cwd, {
      specs: args["specs"] as string | undefined,
      out: args["out"] as string | undefined,
    });
    if (!resolved.ok)
      return reportIssues(
        io,
        resolved.issues,
        (count) => `flowgen init: ${count}; nothing was written.`,
      );
    const { specs, out } = resolved.settings;
    const done: string[] = [];
    const manifestFile = path.join(cwd, "package.json");
    const attributesFile = path.join(cwd, ".gitattributes");
    // Every file init reads or writes, checked before the first write: nothing through a link out.
    const linksOut = await findLinksOut(cwd, projectBoundary(cwd, cwd), [
      "package.json",
      ".gitattributes",
      "flowgen.config.ts",
      "flowgen.config.mts",
      specs,
    ]);
    if (linksOut.length > 0)
      return reportIssues(io, linksOut, (count) => `flowgen init: ${count}; nothing was written.`);
    const manifest = await readOptionalText(manifestFile);
    const syntax = manifest === undefined ? undefined : jsonSyntaxProblem(manifest);
    if (syntax !== undefined || !parsesAsJson(manifest)) {
      const where = syntax === undefined ? "" : ` at line ${syntax.line}, column ${syntax.column}`;
      io.err(
        withCode(
          `flowgen init: package.json is not valid JSON${where}; fix it and run flowgen init again; nothing was written.`,
          "syntax-error",
        ),
      );
      return EXIT.invalid;
    }
    if (loaded.file === undefined) {
      const name = configFileName(manifest);
      await writeFile(path.join(cwd, name), configFileText({ specs, out }), { flag: "wx" });
      done.push(`created ${name}`);
    } else done.push(`kept ${path.relative(cwd, loaded.file)}`);

    const specsDir = path.resolve(cwd, specs);
    if (await hasSpecs(specsDir)) done.push(`kept ${specs}/ (it has specs already)`);
    else {
      const file = path.join(specsDir, `@${EXAMPLE_FLOW.org}`, `${EXAMPLE_FLOW.name}.json`);
      await writeSpecFile(
        file,
        specSkeleton({
          flowId: `@${EXAMPLE_FLOW.org}/${EXAMPLE_FLOW.name}`,
          schema: schemaRef(file, cwd),
        }),
      );
      done.push(`created ${path.relative(cwd, file).split(path.sep).join("/")} (an example flow)`);
    }

    const scripts = addScripts(
      manifest,
      path
        .basename(cwd)
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, "-"),
    );
    if (scripts.added.length > 0 || manifest === undefined)
      await writeFile(manifestFile, scripts.text);
    done.push(
      scripts.added.length > 0
        ? `${manifest === undefined ? "created package.json with" : "added to package.json"} the scripts ${scripts.added.join(", ")}`
        : "kept the package.json scripts",
    );

    const attributes = await readOptionalText(attributesFile);
    const nextAttributes = gitattributesText(attributes, out);
    if (nextAttributes !== attributes) {
      await writeFile(attributesFile, nextAttributes);
      done.push(`marked ${out}/ as generated in .gitattributes`);
    }

    for (const line of done) io.out(`flowgen init: ${line}`);
    // The generated clients run on openapi-fetch: a dependency of the project, not a dev dependency.
    const dependency = triageIssues(
      await checkRuntimeDependency(cwd, path.resolve(cwd, out)),
      resolved.settings.rules,
    );
    reportWarnings(io, [...dependency.errors, ...dependency.warnings], paint);
    if (!existsSync(path.join(cwd, "node_modules", "flowgen-cli")))
      io.out("Next: npm install -D flowgen-cli");
    io.out(
      "Next: npm run flowgen:generate (or flowgen:watch), then import the clients from the output folder.",
    );
    return EXIT.ok;
  },
};

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
