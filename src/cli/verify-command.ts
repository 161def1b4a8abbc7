import { VERIFY_FORMATS, type VerifyFormat } from "../verify/format-report.js";
import { createRedactor, type Redactor } from "../verify/redact-key.js";
import { VERIFY_DEFAULTS } from "../verify/verify-options.js";
import { reportIssues, type Command, type Io } from "./command.js";

/** Exit codes of `flowgen verify`, as the README documents them. */
export const VERIFY_EXIT = { passed: 0, violation: 1, usage: 2, unanswered: 3 } as const;

export const VERIFY_EXIT_HELP =
  "Exit codes: 0 every answer kept the contract, 1 an answer broke it, 2 a usage problem (options, config, specs, no key, or a key the platform refused), 3 the platform could not be reached or kept refusing (also: an internal error, with its stack).";

/** `flowgen verify`: the specs against the live platform. */
export const verifyCommand: Command = {
  usage: "verify [flows..]",
  describe:
    "Call the live platform with each flow's examples (and generated or invalid inputs) and check every answer against the specs",
  epilogue: VERIFY_EXIT_HELP,
  positionals: {
    flows: {
      type: "string",
      array: true,
      describe: "Flow ids or globs (@acme/qa, @acme/*); default every flow",
    },
  },
  options: {
    "base-url": {
      type: "string",
      describe:
        "The platform (default: FLOW_BASE_URL, else baseUrl in the config). The key comes from FLOW_API_KEY",
    },
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    generate: {
      type: "number",
      defaultDescription: String(VERIFY_DEFAULTS.generate),
      describe: "Also send N inputs per flow made from its input schema",
    },
    seed: {
      type: "number",
      defaultDescription: "random, printed",
      example: "42",
      describe: "Seed of the generated inputs: replays a run's inputs",
    },
    negative: {
      type: "boolean",
      defaultDescription: "false",
      describe: "Also send inputs that break the input schema and expect 400 with the error body",
    },
    concurrency: {
      type: "number",
      defaultDescription: String(VERIFY_DEFAULTS.concurrency),
      describe: "Requests in flight at once",
    },
    "max-requests": {
      type: "number",
      defaultDescription: String(VERIFY_DEFAULTS.maxRequests),
      describe: "Requests the run may send, retries included",
    },
    timeout: {
      type: "number",
      defaultDescription: String(VERIFY_DEFAULTS.timeout),
      describe: "Milliseconds an answer may take",
    },
    "dry-run": {
      type: "boolean",
      defaultDescription: "false",
      describe: "List what would be sent, and send nothing",
    },
    format: {
      choices: VERIFY_FORMATS,
      default: "text",
      describe: "text, json or junit (JUnit XML)",
    },
  },
  examples: [
    ["$0 verify --base-url https://api.example.com", "Every flow's examples"],
    [
      "$0 verify '@acme/*' --generate 5 --negative --format junit > verify.xml",
      "More inputs, for CI",
    ],
  ],
  async run(args, { cwd, io: rawIo }) {
    const { verify } = await import("../api/verify.js");
    const { formatVerifyReport } = await import("../verify/format-report.js");
    // The key is never printed: every line passes the redactor, in case a message quotes a value holding it.
    const io = redactIo(rawIo, createRedactor(process.env["FLOW_API_KEY"]));
    const result = await verify({
      cwd,
      config: args["config"] as string | undefined,
      specs: args["specs"] as string | undefined,
      baseUrl: args["baseUrl"] as string | undefined,
      flows: (args["flows"] as string[] | undefined) ?? [],
      generate: args["generate"] as number | undefined,
      seed: args["seed"] as number | undefined,
      negative: args["negative"] as boolean | undefined,
      concurrency: args["concurrency"] as number | undefined,
      maxRequests: args["maxRequests"] as number | undefined,
      timeout: args["timeout"] as number | undefined,
      dryRun: args["dryRun"] as boolean | undefined,
    });
    if (!result.ok) {
      const refused = result.issues.some((issue) => issue.code === "key-refused");
      return reportIssues(io, result.issues, (count) =>
        refused
          ? `flowgen verify: ${count}; nothing was checked.`
          : `flowgen verify: ${count}; nothing was sent.`,
      );
    }
    // The report's values had the key taken out before any was cut (verify-project.ts); a pass
    // over its lines would also find a short key inside flowgen's own words and field names.
    rawIo.out(formatVerifyReport(result.report, args["format"] as VerifyFormat));
    const { outcome } = result.report;
    return outcome === "failed"
      ? VERIFY_EXIT.violation
      : outcome === "unanswered"
        ? VERIFY_EXIT.unanswered
        : VERIFY_EXIT.passed;
  },
};

function redactIo(io: Io, redact: Redactor): Io {
  return { out: (line) => io.out(redact(line)), err: (line) => io.err(redact(line)) };
}
