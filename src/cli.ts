import path from "node:path";
import yargs from "yargs";
import { REPORT_FORMATS, formatDiffReport, type ReportFormat } from "./diff/diff-report.js";
import { renderProject } from "./generate.js";
import { formatIssue, sortIssues } from "./issues.js";
import { ForeignOutputError, diffOutput, writeOutput, type OutputDiff } from "./write/write-output.js";

/** Exit codes, as documented in the README. */
export const EXIT = { ok: 0, stale: 1, invalid: 2, internal: 3, breaking: 4 } as const;

const EXIT_CODES_HELP =
  "Exit codes: 0 success (or up to date), 1 --check found stale output, 2 invalid specs or usage, 3 internal error (a bug: please report it with the stack), 4 --fail-on-breaking found a change that breaks callers.";

interface GenerateArgs {
  specs: string;
  out: string;
  check: boolean;
  "base-url": string | undefined;
  validators: boolean;
  cache: boolean;
  "cache-dir": string;
  "fail-on-breaking": boolean;
}

interface DiffArgs {
  specs: string;
  out: string;
  base: string;
  head: string | undefined;
  format: ReportFormat;
  "fail-on-breaking": boolean;
}

interface ServeArgs {
  specs: string;
  port: number;
  host: string;
  handlers: string;
  watch: boolean;
  "keys-file": string | undefined;
  rate: number;
  burst: number;
  "body-limit": number;
  "max-depth": number;
  "headers-timeout": number;
  "request-timeout": number;
  seed: number;
  latency: string | undefined;
  "error-rate": string | undefined;
  "error-status": string | undefined;
  "rate-limit-rate": string | undefined;
  fault: string[] | undefined;
  "dev-faults": boolean;
  "tls-cert": string | undefined;
  "tls-key": string | undefined;
  "tls-self-signed": boolean;
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
          .option("fail-on-breaking", { type: "boolean", default: false, describe: "Exit 4 and write nothing when the new contract breaks callers of a flow" })
          .example("$0 generate", "Generate from specs/ into generated/")
          .example("$0 generate --check", "Fail the build when generated/ is stale")
          .epilogue(EXIT_CODES_HELP),
      async (args) => {
        code = await runGenerate(args, io);
      },
    )
    .command<ServeArgs>(
      "serve",
      "Run the flow invocation service locally from the specs: auth, rate limits, validation, your handlers or mocks",
      (y) =>
        y
          .option("specs", { type: "string", default: "specs", describe: "Folder of flow specs" })
          .option("port", { type: "number", default: 8787, describe: "Port to listen on (0: any free port)" })
          .option("host", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
          .option("handlers", { type: "string", default: "handlers", describe: "Folder of flow handlers (@org/flow.ts|js); flows without one answer with mocks" })
          .option("watch", { type: "boolean", default: true, describe: "Reload a handler when its file changes (--no-watch: load once)" })
          .option("keys-file", { type: "string", describe: 'JSON keys file: { "keys": [{ "key", "orgs"?, "name"? }] }; also FLOWGEN_SERVE_KEYS="key[:@org+@org],…"' })
          .option("rate", { type: "number", default: 10, describe: "Requests per second per key" })
          .option("burst", { type: "number", default: 20, describe: "Requests a key may send at once" })
          .option("body-limit", { type: "number", default: 1_048_576, describe: "Largest request body in bytes" })
          .option("max-depth", { type: "number", default: 64, describe: "Deepest nesting of arrays and objects in a request body" })
          .option("headers-timeout", { type: "number", default: 10_000, describe: "Milliseconds a client has to send the request headers (then 408)" })
          .option("request-timeout", { type: "number", default: 30_000, describe: "Milliseconds a client has to send the whole request (then 408)" })
          .option("seed", { type: "number", default: 1, describe: "Seed of the mock data and of the injected faults" })
          .option("latency", { type: "string", describe: "Faults: add this many ms to each call, or a seeded random delay in a range: 100-300" })
          .option("error-rate", { type: "string", describe: "Faults: share of calls (0..1) answered with --error-status" })
          .option("error-status", { type: "string", describe: "Faults: 503 (with Retry-After: 1, the default) or 500" })
          .option("rate-limit-rate", { type: "string", describe: "Faults: share of calls (0..1) answered with a forced 429 (Retry-After: 1)" })
          .option("fault", { type: "string", array: true, describe: 'Faults for one flow, repeatable: "@acme/qa:latency=200,error=0.5,status=500,429=0.1"' })
          .option("dev-faults", { type: "boolean", default: true, describe: "Let a request's X-Flowgen-Fault header (latency=200, error=503, 429) set its faults (--no-dev-faults: ignore it)" })
          .option("tls-cert", { type: "string", describe: "HTTPS: certificate (PEM file); needs --tls-key" })
          .option("tls-key", { type: "string", describe: "HTTPS: private key (PEM file)" })
          .option("tls-self-signed", { type: "boolean", default: false, describe: "HTTPS with a fresh self-signed certificate for localhost (development)" })
          .example("$0 serve", "Serve specs/ on http://127.0.0.1:8787 with a printed dev key")
          .example("$0 serve --latency 100-300 --error-rate 0.1", "Slow every call down and fail one in ten with 503, the same way each run (--seed)")
          .epilogue(EXIT_CODES_HELP),
      async (args) => {
        code = await runServe(args, io);
      },
    )
    .command<DiffArgs>(
      "diff",
      "Compare the flows' contracts between two versions of the specs and say which changes break callers",
      (y) =>
        y
          .option("base", { type: "string", default: "HEAD", describe: "The old version: a git ref (its specs, else its <out>/openapi.json), an openapi.json or a specs folder" })
          .option("head", { type: "string", describe: "The new version, the same way (default: the specs in the working tree)" })
          .option("specs", { type: "string", default: "specs", describe: "Folder of flow specs, here and at a git ref" })
          .option("out", { type: "string", default: "generated", describe: "Output folder whose openapi.json a git ref without specs is read from" })
          .option("format", { choices: REPORT_FORMATS, default: "text" as ReportFormat, describe: "text, markdown (for a pull-request comment) or json" })
          .option("fail-on-breaking", { type: "boolean", default: false, describe: "Exit 4 when a change breaks callers" })
          .example("$0 diff", "What the specs in the working tree change since HEAD")
          .example("$0 diff --base origin/main --format markdown", "A pull-request comment")
          .epilogue(EXIT_CODES_HELP),
      async (args) => {
        code = await runDiff(args, io);
      },
    )
    .demandCommand(1, "Name a command: flowgen generate, flowgen serve or flowgen diff")
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
    failOnBreaking: args["fail-on-breaking"],
  });
  if (!result.ok && result.contract) {
    io.err(formatDiffReport(result.contract, "text").trimEnd());
    io.err(`flowgen: ${result.contract.breaking} change${result.contract.breaking === 1 ? "" : "s"} would break callers; nothing was written (--fail-on-breaking).`);
    return EXIT.breaking;
  }
  if (result.ok && result.contract && result.contract.changes.length > 0) io.out(formatDiffReport(result.contract, "text").trimEnd());
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

async function runDiff(args: DiffArgs, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const { diffVersions } = await import("./diff/diff-versions.js");
  const { ContractSourceError } = await import("./diff/read-contract.js");
  try {
    const result = await diffVersions({ cwd: process.cwd(), specs: args.specs, out: args.out, base: args.base, head: args.head });
    if (!result.ok) {
      const issues = sortIssues(result.issues);
      for (const issue of issues) io.err(formatIssue(issue));
      io.err(`flowgen diff: ${issues.length} problem${issues.length === 1 ? "" : "s"} in the specs; nothing was compared.`);
      return EXIT.invalid;
    }
    io.out(formatDiffReport(result.report, args.format).trimEnd());
    return args["fail-on-breaking"] && result.report.breaking > 0 ? EXIT.breaking : EXIT.ok;
  } catch (error) {
    if (error instanceof ContractSourceError) {
      io.err(`flowgen diff: ${error.message}`);
      return EXIT.invalid;
    }
    throw error;
  }
}

async function runServe(args: ServeArgs, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const { startServe } = await import("./serve/serve.js");
  const { KeysError } = await import("./serve/keys.js");
  const { HandlerLoadError } = await import("./serve/handlers.js");
  const { TlsError } = await import("./serve/tls.js");
  const { parseFaultFlags } = await import("./serve/faults.js");
  let server: Awaited<ReturnType<typeof startServe>>;
  try {
    server = await startServe({
      specs: args.specs,
      cwd: process.cwd(),
      port: args.port,
      host: args.host,
      handlers: args.handlers,
      watch: args.watch,
      keysFile: args["keys-file"],
      keysEnv: process.env["FLOWGEN_SERVE_KEYS"],
      rate: args.rate,
      burst: args.burst,
      bodyLimit: args["body-limit"],
      maxDepth: args["max-depth"],
      headersTimeoutMs: args["headers-timeout"],
      requestTimeoutMs: args["request-timeout"],
      seed: args.seed,
      faults: parseFaultFlags({
        latency: args.latency,
        errorRate: args["error-rate"],
        errorStatus: args["error-status"],
        rateLimitRate: args["rate-limit-rate"],
        fault: args.fault,
        devFaults: args["dev-faults"],
      }),
      tls: { certFile: args["tls-cert"], keyFile: args["tls-key"], selfSigned: args["tls-self-signed"] },
      log: (entry) => io.out(JSON.stringify({ time: new Date().toISOString(), ...entry })),
      say: (line) => io.err(line),
    });
  } catch (error) {
    // Bad keys, a handler that does not load, or an option out of range (--rate 0, --error-rate 2): say so, exit 2.
    if (error instanceof KeysError || error instanceof HandlerLoadError || error instanceof TlsError || error instanceof RangeError) {
      io.err(`flowgen serve: ${error.message}`);
      return EXIT.invalid;
    }
    if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
      io.err(`flowgen serve: port ${args.port} on ${args.host} is in use; pass another --port (0 picks a free one)`);
      return EXIT.invalid;
    }
    throw error;
  }
  if (!server.ok) {
    const issues = sortIssues(server.issues);
    for (const issue of issues) io.err(formatIssue(issue));
    io.err(`flowgen serve: ${issues.length} problem${issues.length === 1 ? "" : "s"} in ${args.specs}; not started.`);
    return EXIT.invalid;
  }
  const key = server.devKey ?? "<API_KEY>";
  io.err(`flowgen serve: ${server.flows.length} flows on ${server.url} (POST /v1/@org/flow-name)`);
  if (server.devKey !== undefined) io.err(`flowgen serve: no keys configured; this run's dev key is ${server.devKey}`);
  if (server.certFile !== undefined) {
    io.err(`flowgen serve: HTTPS with the certificate in ${server.certFile}; clients trust it with NODE_EXTRA_CA_CERTS=${server.certFile} (curl: --cacert)`);
  }
  const cacert = server.certFile === undefined ? "" : `--cacert ${server.certFile} `;
  io.err(`  curl -sS ${cacert}-X POST ${server.url}/v1/${server.sample.flowId} -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${JSON.stringify(server.sample.input).replaceAll("'", "'\\''")}'`);
  // Runs until SIGTERM or SIGINT; then requests in flight finish before the process ends.
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      io.err(`flowgen serve: ${signal}: finishing requests in flight, then stopping`);
      void server.close().then(resolve);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  return EXIT.ok;
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
