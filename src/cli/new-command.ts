import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import { schemaRef, specSkeleton, writeSpecFile } from "../scaffold/spec-skeleton.js";
import { findFileInTheWay } from "../file-in-the-way.js";
import { staysInside } from "../project-boundary.js";
import {
  findFileInSpecsPlace,
  findRealBoundary,
  NAME_PATTERN,
  NAME_RULE,
} from "../spec/read-spec-files.js";
import { withCode, type Issue } from "../issues.js";
import { EXIT, reportIssues, type Command, type Io } from "./command.js";

/** `flowgen new @org/name`: a spec file to fill in. */
export const newCommand: Command = {
  usage: "new <flow>",
  describe:
    "Write a spec skeleton for a new flow: specs/@org/flow-name.json with input, output and an example to fill in",
  positionals: { flow: { type: "string", describe: "The flow's id: @org/flow-name" } },
  options: {
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    "from-sample": {
      type: "string",
      repeatable: true,
      describe:
        "Draft the schemas from recorded calls: an input sample (repeat, each with --from-sample-output), or one folder of <name>.input.json + <name>.output.json, or one .jsonl file of { input, output } lines",
    },
    "from-sample-output": {
      type: "string",
      repeatable: true,
      describe: "The output sample answering the --from-sample at the same position",
    },
    enums: {
      type: "boolean",
      defaultDescription: "false",
      describe: "With --from-sample: draft an enum for strings whose values repeat",
    },
  },
  examples: [
    ["$0 new @acme/summarize", "Write specs/@acme/summarize.json"],
    [
      "$0 new @acme/summarize --from-sample in.json --from-sample-output out.json",
      "Draft its schemas from a recorded call",
    ],
  ],
  async run(args, { cwd, io }) {
    const flowId = String(args["flow"]);
    const id = parseFlowId(flowId);
    if (!id.ok) {
      io.err(withCode(id.message, "invalid-flow-name"));
      return EXIT.invalid;
    }
    const specs = await resolveSpecsFolder(cwd, args);
    if (!specs.ok) return reportIssues(io, specs.issues, nothingWritten);
    const stem = path.resolve(specs.folder, `@${id.org}`, id.name);
    if (!(await staysInside(path.dirname(stem), specs.folder))) {
      io.err(
        withCode(
          `flowgen new: ${displayPath(cwd, path.dirname(stem))} is a link leading out of the specs folder; flowgen writes specs only inside the project: replace the link with a folder. Nothing was written.`,
          "outside-project",
        ),
      );
      return EXIT.invalid;
    }
    const orgFile = findFileInTheWay(path.dirname(stem));
    if (orgFile !== undefined) {
      io.err(
        withCode(
          `flowgen new: ${displayPath(cwd, orgFile)} is a file where the folder of @${id.org}'s specs goes; rename or move it. Nothing was written.`,
          "misplaced-file",
        ),
      );
      return EXIT.invalid;
    }
    const existing = findExistingSpec(stem);
    if (existing !== undefined) {
      io.err(
        withCode(
          `flowgen new: ${displayPath(cwd, existing)} already exists; ${flowId} has a spec. Edit that file, or pick another name.`,
          "duplicate-flow",
        ),
      );
      return EXIT.invalid;
    }
    const target: NewSpec = { cwd, flowId, specsFolder: specs.folder, file: `${stem}.json` };
    const samples = readSampleFlags(args);
    if (samples.inputs.length > 0 || samples.outputs.length > 0)
      return writeDraftedSpec(io, target, samples);
    if (samples.enums) {
      io.err(
        "flowgen new: --enums drafts enums from recorded calls, and needs them: add --from-sample <file>, or leave --enums out. Nothing was written.",
      );
      return EXIT.invalid;
    }
    return writeSkeletonSpec(io, target);
  },
};

/** The spec file `flowgen new` writes, and where it stands. */
interface NewSpec {
  readonly cwd: string;
  readonly flowId: string;
  /** Absolute path of the specs folder. */
  readonly specsFolder: string;
  /** Absolute path of the spec file. */
  readonly file: string;
}

/** The `--from-sample`, `--from-sample-output` and `--enums` flags. */
interface SampleFlags {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly enums: boolean;
}

const nothingWritten = (count: string) => `flowgen new: ${count}; nothing was written.`;

/** The org and name of `@org/flow-name`, or the message saying which part breaks the rule. */
function parseFlowId(
  flowId: string,
): { ok: true; org: string; name: string } | { ok: false; message: string } {
  const notAnId = `flowgen new: "${flowId}" is not a flow id: write @org/flow-name`;
  const match = /^@([^/]+)\/([^/]+)$/.exec(flowId);
  if (match === null) return { ok: false, message: `${notAnId} (${NAME_RULE})` };
  const [, org = "", name = ""] = match;
  const bad = [
    NAME_PATTERN.test(org) ? undefined : `org "${org}"`,
    NAME_PATTERN.test(name) ? undefined : `flow name "${name}"`,
  ].filter((what) => what !== undefined);
  if (bad.length === 0) return { ok: true, org, name };
  return { ok: false, message: `${notAnId}; ${bad.join(" and ")} breaks the rule (${NAME_RULE})` };
}

/** The specs folder, absolute, from `--specs`, the config file or the default. */
async function resolveSpecsFolder(
  cwd: string,
  args: Readonly<Record<string, unknown>>,
): Promise<{ ok: true; folder: string } | { ok: false; issues: readonly Issue[] }> {
  const loaded = await loadConfig(cwd, args["config"] as string | undefined);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, {
    specs: args["specs"] as string | undefined,
  });
  if (!resolved.ok) return resolved;
  const folder = path.resolve(cwd, resolved.settings.specs);
  const inTheWay = findFileInSpecsPlace(folder, cwd, displayPath(cwd, folder) || ".");
  if (inTheWay !== undefined) return { ok: false, issues: [inTheWay] };
  // Written only where generate reads: inside the project, through no link that leads out of it.
  const inside = await findRealBoundary(folder, cwd, displayPath(cwd, folder));
  return "issue" in inside ? { ok: false, issues: [inside.issue] } : { ok: true, folder };
}

/** The flow's spec file when it has one already, in any of the formats flowgen reads. */
function findExistingSpec(stem: string): string | undefined {
  for (const ext of [".json", ".yaml", ".yml"]) {
    const file = `${stem}${ext}`;
    if (existsSync(file)) return file;
  }
  return undefined;
}

function readSampleFlags(args: Readonly<Record<string, unknown>>): SampleFlags {
  return {
    inputs: [args["fromSample"] ?? []].flat().map(String),
    outputs: [args["fromSampleOutput"] ?? []].flat().map(String),
    enums: args["enums"] === true,
  };
}

/** Writes a spec whose schemas are drafted from recorded calls. */
async function writeDraftedSpec(io: Io, target: NewSpec, samples: SampleFlags): Promise<number> {
  const { cwd, flowId, file } = target;
  const { draftFromSamples } = await import("../draft/draft-spec.js");
  const relPath = path.relative(target.specsFolder, file).split(path.sep).join("/");
  const draft = await draftFromSamples(
    { cwd, flowId, schema: schemaRef(file, cwd), relPath, displayPath: displayPath(cwd, file) },
    samples,
  );
  if (!draft.ok) return reportIssues(io, draft.issues, nothingWritten);
  await writeSpecFile(file, draft.text);
  io.out(
    `flowgen: wrote ${displayPath(cwd, file)}, drafted from ${draft.count} recorded call${draft.count === 1 ? "" : "s"}; review its schemas and describe them, then run flowgen generate.`,
  );
  return EXIT.ok;
}

/** Writes a spec skeleton: input, output and an example to fill in. */
async function writeSkeletonSpec(io: Io, target: NewSpec): Promise<number> {
  const { cwd, flowId, file } = target;
  await writeSpecFile(file, specSkeleton({ flowId, schema: schemaRef(file, cwd) }));
  io.out(
    `flowgen: wrote ${displayPath(cwd, file)}; fill in its input and output schemas and the example, then run flowgen generate.`,
  );
  return EXIT.ok;
}

/** `file` relative to the working directory, with forward slashes. */
function displayPath(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/");
}
