import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const SCHEMA_IN_PACKAGE = "schema/flow-spec.schema.json";
const PACKAGE_NAME = "flowgen-cli";

/**
 * The `$schema` of a new spec file: a path relative to the file, to the spec format inside the
 * installed package (`node_modules/flowgen-cli/schema/…`), so editors find it in any project. The
 * nearest `node_modules` holding flowgen wins; flowgen's own repository uses its `schema/` folder;
 * otherwise the path where `npm install -D flowgen-cli` puts it.
 *
 * @example
 * schemaRef("/p/specs/@acme/qa.json", "/p") // "../../node_modules/flowgen-cli/schema/flow-spec.schema.json"
 */
export function schemaRef(specFile: string, cwd: string): string {
  const target = findSchema(cwd) ?? path.join(cwd, "node_modules", PACKAGE_NAME, SCHEMA_IN_PACKAGE);
  return path.relative(path.dirname(specFile), target).split(path.sep).join("/");
}

function findSchema(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const installed = path.join(dir, "node_modules", PACKAGE_NAME, SCHEMA_IN_PACKAGE);
    if (existsSync(installed)) return installed;
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME)
      return path.join(dir, SCHEMA_IN_PACKAGE);
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/**
 * A new flow's spec: input and output schemas to fill in, and one example that `flowgen generate`
 * checks against them.
 *
 * @example
 * const text = specSkeleton({ flowId: "@acme/qa", schema: "../../node_modules/flowgen-cli/schema/flow-spec.schema.json" });
 */
export function specSkeleton(options: {
  readonly flowId: string;
  readonly schema: string;
}): string {
  const spec = {
    $schema: options.schema,
    summary: `TODO: what ${options.flowId} does, in a few words`,
    input: {
      type: "object",
      required: ["text"],
      additionalProperties: false,
      properties: {
        text: { type: "string", minLength: 1, description: "TODO: describe the input." },
      },
    },
    output: {
      type: "object",
      required: ["result"],
      properties: { result: { type: "string", description: "TODO: describe the output." } },
    },
    examples: [
      { name: "a first call", input: { text: "Hello" }, output: { result: "Hello, world" } },
    ],
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}

/**
 * Writes a new spec file laid out by the project's prettier (its own 3.x, else flowgen's) under the
 * project's own config, looked up as generate looks it up (no further than the project's root),
 * never over an existing file.
 *
 * @example
 * await writeSpecFile("/p/specs/@acme/qa.json", specSkeleton({ flowId: "@acme/qa", schema }));
 */
export async function writeSpecFile(file: string, text: string): Promise<void> {
  const [{ findProjectPrettier, importPrettier }, { resolveProjectConfig }] = await Promise.all([
    import("../format/project-prettier.js"),
    import("../format/project-root.js"),
  ]);
  const prettier = await importPrettier(await findProjectPrettier(path.dirname(file)));
  const options = await resolveProjectConfig(file, prettier);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, await prettier.format(text, { ...options, filepath: file }), {
    flag: "wx",
  });
}
