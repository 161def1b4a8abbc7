import path from "node:path";
import yargs from "yargs";
import { renderProject } from "./generate.js";
import { formatIssue, sortIssues } from "./issues.js";
import { ForeignOutputError, diffOutput, writeOutput, type OutputDiff } from "./write/write-output.js";

/** Exit codes, as documented in the README. */
export const EXIT = { ok: 0, stale: 1, invalid: 2, internal: 3 } as const;

const EXIT_CODES_HELP =
  "Exit codes: 0 success (or up to date), 1 --check found stale output, 2 invalid specs or usage, 3 internal error (a bug: please report it with the stack).";

interface GenerateArgs {
  specs: string;
  out: string;
  check: boolean;
  "base-url": string | undefined;
  validators: boolean;
  cache: boolean;
  "cache-dir": string;
}

/**
 * The `flowgen` command. Returns the exit code instead of exiting, so tests can call it in-process.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[], io: { out: (line: string) => void; err: (line: string) => void } = defaultIo()): Promise<number> {
  let code: number = EXIT.ok;
  const parser = yargs([...argv])
    .scriptName("flowgen")
    .usage("$0 <command> [options]")
    .command<GenerateArgs>(
      "generate",
      "Compile the flow specs into generated/: openapi.json, runtime.ts, index.ts and one typed client module per flow",
      (y) =>
        y
          .option("specs", { type: "string", default: "specs", describe: "Folder of flow specs (@org/flow-name.json|yaml)" })
          .option("out", { type: "string", default: "generated", describe: "Output folder; flowgen owns it and replaces its content" })
          .option("check", { type: "boolean", default: false, describe: "Write nothing; exit 1 if the output folder is not up to date" })
          .option("base-url", { type: "string", describe: "Default base URL compiled into the clients and the OpenAPI servers entry" })
          .option("validators", { type: "boolean", default: false, describe: "Also compile each flow's schemas into validators the clients run on input and output" })
          .option("cache", { type: "boolean", default: true, describe: "Reuse work from earlier runs whose inputs did not change (--no-cache: render everything)" })
          .option("cache-dir", { type: "string", default: "node_modules/.cache/flowgen", describe: "Where the render cache lives" })
          .example("$0 generate", "Generate from specs/ into generated/")
          .example("$0 generate --check", "Fail the build when generated/ is stale")
          .epilogue(EXIT_CODES_HELP),
      async (args) => {
        code = await runGenerate(args, io);
      },
    )
    .demandCommand(1, "Name a command: flowgen generate")
    .strict()
    .epilogue(EXIT_CODES_HELP)
    .help()
    .version()
    .fail((message, error) => {
      if (error) throw error;
      io.err(message);
      io.err("Run flowgen --help for usage.");
      code = EXIT.invalid;
    })
    .exitProcess(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100));
  try {
    await parser.parseAsync();
  } catch (error) {
    io.err(`flowgen: internal error (a bug in flowgen; please report it with this output):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
  return code;
}

async function runGenerate(args: GenerateArgs, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const started = performance.now();
  const cwd = process.cwd();
  const result = await renderProject({
    specs: args.specs,
    out: args.out,
    cwd,
    baseUrl: args["base-url"],
    validators: args.validators,
    cacheDir: args.cache ? args["cache-dir"] : undefined,
  });
  if (!result.ok) {
    const issues = sortIssues(result.issues);
    for (const issue of issues) io.err(formatIssue(issue));
    io.err(`flowgen: ${issues.length} problem${issues.length === 1 ? "" : "s"} in ${args.specs}; nothing was written.`);
    return EXIT.invalid;
  }
  const outDisplay = path.relative(cwd, path.resolve(cwd, args.out)) || ".";
  try {
    if (args.check) {
      const diff = await diffOutput(args.out, result.files);
      if (countChanges(diff) === 0) {
        io.out(`flowgen: ${outDisplay} is up to date (${result.files.length} files, ${result.flowCount} flows).`);
        return EXIT.ok;
      }
      await reportStale(diff, outDisplay, result.files, io);
      return EXIT.stale;
    }
    const diff = await writeOutput(args.out, result.files);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    io.out(
      `flowgen: ${result.flowCount} flows → ${outDisplay}: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged (${seconds}s)`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ForeignOutputError) {
      io.err(`flowgen: ${error.message} [not-an-output-folder]`);
      return EXIT.invalid;
    }
    throw error;
  }
}

function countChanges(diff: OutputDiff): number {
  return diff.added.length + diff.changed.length + diff.removed.length;
}

async function reportStale(diff: OutputDiff, outDisplay: string, files: readonly { path: string; content: string }[], io: { err: (line: string) => void }): Promise<void> {
  io.err(`flowgen: ${outDisplay} is stale: ${countChanges(diff)} file${countChanges(diff) === 1 ? "" : "s"} differ from the specs. Run flowgen generate and commit the result.`);
  for (const p of diff.added) io.err(`  missing  ${outDisplay}/${p}`);
  for (const p of diff.changed) io.err(`  changed  ${outDisplay}/${p}`);
  for (const p of diff.removed) io.err(`  extra    ${outDisplay}/${p}`);
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  // Loaded here: a run that finds nothing stale never needs the diff library.
  const { shortDiff } = await import("./write/short-diff.js");
  for (const p of diff.changed.slice(0, 3)) io.err(shortDiff(`${outDisplay}/${p}`, diff.previous.get(p) ?? "", byPath.get(p) ?? ""));
}

function defaultIo() {
  return { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
}
