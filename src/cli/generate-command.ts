import path from "node:path";
import {
  check,
  countChanges,
  generate,
  type GenerateOptions,
  type GenerateResult,
} from "../api/generate.js";
import type { DiffReport } from "../diff/contract-diff.js";
import { formatDiffReport } from "../diff/diff-report.js";
import { withCode } from "../issues.js";
import type { OutputFile } from "../output-file.js";
import type { OutputDiff } from "../write/write-output.js";
import {
  EXIT,
  pickFlags,
  reportIssues,
  whereIssues,
  type CliContext,
  type Command,
  type Io,
} from "./command.js";

/** `flowgen generate [--check | --watch]`. */
export const generateCommand: Command = {
  usage: "generate",
  describe:
    "Compile the flow specs into generated/: openapi.json, runtime/, index.ts and one typed client module per flow",
  options: {
    specs: {
      type: "string",
      defaultDescription: "specs",
      describe: "Folder of flow specs (@org/flow-name.json|yaml)",
    },
    out: {
      type: "string",
      defaultDescription: "generated",
      describe: "Output folder; flowgen owns it and replaces its content",
    },
    check: {
      type: "boolean",
      describe: "Write nothing; exit 1 if the output folder is not up to date",
    },
    watch: {
      type: "boolean",
      alias: "w",
      describe: "Generate again whenever a spec or the config file changes; Ctrl-C stops",
    },
    "base-url": {
      type: "string",
      describe:
        "Default base URL (http or https) compiled into the clients and the OpenAPI servers entry",
    },
    validators: {
      type: "boolean",
      defaultDescription: "false",
      describe:
        "Also compile each flow's schemas into validators the clients run on input and output",
    },
    cache: {
      type: "boolean",
      defaultDescription: "true",
      describe:
        "Reuse work from earlier runs whose inputs did not change (--no-cache: render everything)",
    },
    "cache-dir": {
      type: "string",
      defaultDescription: "node_modules/.cache/flowgen",
      describe: "Where the render cache lives",
    },
    "trust-manifest": {
      type: "boolean",
      defaultDescription: "false",
      describe:
        "Take the committed manifest's word that files are current instead of rendering to prove it: faster on a fresh clone, but a forged manifest passes, so never for pull requests from others",
    },
    "fail-on-breaking": {
      type: "boolean",
      defaultDescription: "false",
      describe: "Exit 4 and write nothing when the new contract breaks callers of a flow",
    },
    verbose: {
      type: "boolean",
      defaultDescription: "false",
      describe: "Also print the time each stage took, on stderr",
    },
  },
  conflicts: { watch: "check" },
  examples: [
    [
      "$0 generate",
      "Generate from specs/ into generated/ (settings from flowgen.config.ts, if there is one)",
    ],
    ["$0 generate --check", "Fail the build when generated/ is stale"],
    ["$0 generate --watch", "Regenerate on every spec change"],
  ],
  async run(args, context) {
    const options: GenerateOptions = {
      cwd: context.cwd,
      ...pickFlags<GenerateOptions>(args, [
        "config",
        "specs",
        "out",
        "baseUrl",
        "validators",
        "cache",
        "cacheDir",
        "failOnBreaking",
        "trustManifest",
      ]),
    };
    if (args["watch"] === true) return watchGenerate(options, context);
    const started = performance.now();
    const { io, cwd } = context;
    if (args["check"] === true) {
      const result = await check(options);
      if (!result.ok && result.contract) return reportBreaking(io, result.contract);
      if (!result.ok)
        return reportIssues(
          io,
          result.issues,
          (count) =>
            `flowgen: ${count}${whereIssues(result.issues, result.settings?.specs)}; nothing was checked.`,
        );
      const outDisplay = displayPath(cwd, result.settings.out);
      if (args["verbose"] === true) reportStages(io, result.stages);
      if (result.upToDate) {
        io.out(
          `flowgen: ${outDisplay} is up to date (${result.files.length} files, ${result.flowCount} flows).`,
        );
        return EXIT.ok;
      }
      await reportStale(result.diff, outDisplay, result.files, io);
      return EXIT.stale;
    }
    const result = await generate(options);
    if (!result.ok && result.contract) return reportBreaking(io, result.contract);
    if (!result.ok) return reportGenerateIssues(io, result);
    if (result.contract && result.contract.changes.length > 0)
      io.out(formatDiffReport(result.contract, "text").trimEnd());
    if (args["verbose"] === true) reportStages(io, result.stages);
    io.out(describeWrite(cwd, result, (performance.now() - started) / 1000));
    return EXIT.ok;
  },
};

async function watchGenerate(
  options: GenerateOptions,
  { io, cwd, stopped }: CliContext,
): Promise<number> {
  // Loaded here: only watching runs need chokidar.
  const { watch } = await import("../api/watch.js");
  const watcher = await watch({
    ...options,
    onRun: ({ result, seconds, changed }) => {
      const time = new Date().toISOString().slice(11, 19);
      if (result.ok)
        io.out(
          `${time} ${describeWrite(cwd, result, seconds)}${changed.length > 0 ? ` after ${describeChanged(changed)}` : ""}`,
        );
      else
        reportIssues(
          io,
          result.issues,
          (count) =>
            `${time} flowgen: ${count}${whereIssues(result.issues, result.settings?.specs)}; the output was left as it was; waiting for changes.`,
        );
    },
    onError: (error) =>
      io.err(
        `flowgen: internal error (a bug in flowgen; please report it with this output); still watching:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  });
  if (!("close" in watcher)) return reportGenerateIssues(io, watcher);
  io.err("flowgen: watching the specs and the config file; Ctrl-C stops.");
  const signal = await stopped();
  io.err(`flowgen: ${signal}: stopped watching.`);
  await watcher.close();
  return EXIT.ok;
}

/** `--verbose`: one line per stage that ran, with the time during which it was running. */
function reportStages(io: Io, stages: readonly (readonly [string, number])[]): void {
  for (const [stage, ms] of stages)
    io.err(`flowgen: ${stage.padEnd(9)} ${(ms / 1000).toFixed(3)}s`);
}

/** `--fail-on-breaking` refused: the contract report, and exit 4. */
function reportBreaking(io: Io, contract: DiffReport): number {
  io.err(formatDiffReport(contract, "text").trimEnd());
  io.err(
    withCode(
      `flowgen: ${contract.breaking} change${contract.breaking === 1 ? "" : "s"} would break callers; nothing was written (--fail-on-breaking).`,
      "breaking-change",
    ),
  );
  return EXIT.breaking;
}

function reportGenerateIssues(io: Io, result: Extract<GenerateResult, { ok: false }>): number {
  return reportIssues(
    io,
    result.issues,
    (count) =>
      `flowgen: ${count}${whereIssues(result.issues, result.settings?.specs)}; nothing was written.`,
  );
}

function describeWrite(
  cwd: string,
  result: Extract<GenerateResult, { ok: true }>,
  seconds: number,
): string {
  const { diff } = result;
  return `flowgen: ${result.flowCount} flows → ${displayPath(cwd, result.settings.out)}: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged (${seconds.toFixed(2)}s)`;
}

function describeChanged(changed: readonly string[]): string {
  return changed.length <= 2
    ? changed.join(", ")
    : `${changed.slice(0, 2).join(", ")} and ${changed.length - 2} more`;
}

function displayPath(cwd: string, relative: string): string {
  return path.relative(cwd, path.resolve(cwd, relative)).split(path.sep).join("/") || ".";
}

async function reportStale(
  diff: OutputDiff,
  outDisplay: string,
  files: readonly OutputFile[],
  io: Io,
): Promise<void> {
  const count = countChanges(diff);
  io.err(
    `flowgen: ${outDisplay} is stale: ${count} file${count === 1 ? "" : "s"} differ from the specs. Run flowgen generate and commit the result.`,
  );
  for (const p of diff.added) io.err(`  missing  ${outDisplay}/${p}`);
  for (const p of diff.changed) io.err(`  changed  ${outDisplay}/${p}`);
  for (const p of diff.removed) io.err(`  extra    ${outDisplay}/${p}`);
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  // Loaded here: a run that finds nothing stale never needs the diff library.
  const { shortDiff } = await import("../write/short-diff.js");
  for (const p of diff.changed.slice(0, 3))
    io.err(shortDiff(`${outDisplay}/${p}`, diff.previous.get(p) ?? "", byPath.get(p) ?? ""));
}
