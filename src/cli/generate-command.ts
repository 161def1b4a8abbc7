import {
  check,
  generate,
  type CheckResult,
  type GenerateOptions,
  type GenerateResult,
} from "../api/generate.js";
import {
  EXIT,
  describeInternalError,
  pickFlags,
  reportIssues,
  reportWarnings,
  whereIssues,
  type CliContext,
  type Command,
} from "./command.js";
import { summarizeGenerate, type GenerateSummary } from "./generate-summary.js";
import {
  describeWrite,
  displayPath,
  exitCodeOf,
  reportRun,
  reportStages,
} from "./generate-report.js";
import { createProgress } from "./progress.js";
import { exitCodeForSignal, runStoppable, type Stoppable } from "./stoppable-run.js";
import { choosePaint, showsProgress } from "./terminal.js";

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
    json: {
      type: "boolean",
      defaultDescription: "false",
      describe:
        "Print one JSON summary on stdout (files added, changed and removed, problems, warnings) and nothing else: for CI",
    },
    quiet: {
      type: "boolean",
      alias: "q",
      defaultDescription: "false",
      describe: "Print problems and a stale folder only: no progress, no warnings, no success line",
    },
  },
  conflicts: { watch: ["check", "json"] },
  examples: [
    [
      "$0 generate",
      "Generate from specs/ into generated/ (settings from flowgen.config.ts, if there is one)",
    ],
    ["$0 generate --check", "Fail the build when generated/ is stale"],
    ["$0 generate --check --json", "The same, with a JSON summary for the CI step to read"],
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
    if (args["watch"] === true)
      return watchGenerate(options, context, {
        quiet: args["quiet"] === true,
        verbose: args["verbose"] === true,
      });
    return generateOnce(options, context, {
      check: args["check"] === true,
      json: args["json"] === true,
      quiet: args["quiet"] === true,
      verbose: args["verbose"] === true,
    });
  },
};

/**
 * One `generate` or `--check` run, stopped where the output folder is whole by Ctrl-C or SIGTERM
 * (`runStoppable`), reported for people or, with `--json`, as one summary.
 */
async function generateOnce(
  options: GenerateOptions,
  context: CliContext,
  flags: {
    readonly check: boolean;
    readonly json: boolean;
    readonly quiet: boolean;
    readonly verbose: boolean;
  },
): Promise<number> {
  const { io, cwd, terminal, env } = context;
  const now = context.now ?? (() => performance.now());
  const paint = choosePaint(terminal, env);
  // --json promises nothing on stderr: no progress line either.
  const progress = showsProgress(terminal, env, flags.quiet || flags.json)
    ? createProgress(terminal, { paint, now })
    : undefined;
  const started = now();
  let ran: Stoppable<GenerateResult | CheckResult>;
  try {
    const run = { ...options, onProgress: progress };
    ran = await runStoppable(context.stopped, (signal) =>
      flags.check ? check({ ...run, signal }) : generate({ ...run, signal }),
    );
  } finally {
    progress?.finish();
  }
  const seconds = (now() - started) / 1000;
  if (!ran.finished) return reportStopped(context, ran.stoppedBy, { ...flags, seconds });
  const { value: result, stoppedBy } = ran;
  const exitCode = stoppedBy === undefined ? exitCodeOf(result) : exitCodeForSignal(stoppedBy);
  if (flags.json) {
    const out = result.ok ? result.settings.out : result.settings?.out;
    const summary = summarizeGenerate(result, {
      check: flags.check,
      exitCode,
      seconds,
      out: out === undefined ? undefined : displayPath(cwd, out),
    });
    io.out(JSON.stringify({ ...summary, stoppedBy }, null, 2));
    return exitCode;
  }
  await reportRun(io, result, { ...flags, cwd, paint, seconds });
  // The signal came once the write was under way: it was finished, and is reported above.
  if (stoppedBy !== undefined && result.ok)
    io.err(`flowgen: ${stoppedBy}: stopped once the ${flags.check ? "check" : "write"} was done.`);
  return exitCode;
}

/** A run stopped by a signal before it changed anything: a line saying so, and the signal's exit code. */
function reportStopped(
  { io }: CliContext,
  stoppedBy: string,
  run: { readonly check: boolean; readonly seconds: number; readonly json: boolean },
): number {
  const exitCode = exitCodeForSignal(stoppedBy);
  if (run.json) {
    const summary: GenerateSummary = {
      command: "generate",
      check: run.check,
      exitCode,
      stoppedBy,
      problems: [],
      warnings: [],
      seconds: run.seconds,
    };
    io.out(JSON.stringify(summary, null, 2));
  } else
    io.err(
      `flowgen: ${stoppedBy}: stopped; ${run.check ? "nothing was checked" : "the output folder was left as it was"}.`,
    );
  return exitCode;
}

/**
 * `generate --watch`: a line per run, stamped with the local time. `--quiet` leaves out the
 * warnings and the lines of runs that succeeded (problems are still printed); `--verbose` adds the
 * time each stage of a run took.
 */
async function watchGenerate(
  options: GenerateOptions,
  { io, cwd, stopped, terminal, env }: CliContext,
  report: { readonly quiet: boolean; readonly verbose: boolean },
): Promise<number> {
  // Loaded here: only watching runs need chokidar.
  const { watch } = await import("../api/watch.js");
  const paint = choosePaint(terminal, env);
  const watcher = await watch({
    ...options,
    onRun: ({ result, seconds, changed }) => {
      const time = new Date().toTimeString().slice(0, 8);
      if (!report.quiet) reportWarnings(io, result.warnings ?? [], paint);
      if (report.verbose && result.ok) reportStages(io, result.stages);
      if (result.ok && !report.quiet)
        io.out(
          `${time} ${describeWrite(cwd, result, seconds)}${changed.length > 0 ? ` after ${describeChanged(changed)}` : ""}`,
        );
      else if (!result.ok)
        reportIssues(
          io,
          result.issues,
          (count) =>
            `${time} flowgen: ${count}${whereIssues(result.issues, result.settings?.specs)}; the output was left as it was; waiting for changes.`,
          paint,
        );
    },
    onError: (error) => io.err(describeInternalError(error, "; still watching")),
  });
  if (!("close" in watcher))
    return reportIssues(
      io,
      watcher.issues,
      (count) => `flowgen: ${count}${whereIssues(watcher.issues, undefined)}; nothing was written.`,
      paint,
    );
  io.err("flowgen: watching the specs and the config file; Ctrl-C stops.");
  const signal = await stopped();
  io.err(`flowgen: ${signal}: stopped watching.`);
  await watcher.close();
  return EXIT.ok;
}

function describeChanged(changed: readonly string[]): string {
  return changed.length <= 2
    ? changed.join(", ")
    : `${changed.slice(0, 2).join(", ")} and ${changed.length - 2} more`;
}
