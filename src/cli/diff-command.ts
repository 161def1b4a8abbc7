import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import { REPORT_FORMATS, formatDiffReport, type ReportFormat } from "../diff/diff-report.js";
import { withCode } from "../issues.js";
import { EXIT, reportIssues, type Command } from "./command.js";

/** `flowgen diff`: the flows' contract changes between two versions, breaking or compatible. */
export const diffCommand: Command = {
  usage: "diff",
  describe:
    "Compare the flows' contracts between two versions of the specs and say which changes break callers",
  options: {
    base: {
      type: "string",
      default: "HEAD",
      describe:
        "The old version: a git ref (its specs, else its <out>/openapi.json), an openapi.json or a specs folder",
    },
    head: {
      type: "string",
      describe: "The new version, the same way (default: the specs in the working tree)",
    },
    specs: {
      type: "string",
      defaultDescription: "specs",
      describe: "Folder of flow specs, here and at a git ref",
    },
    out: {
      type: "string",
      defaultDescription: "generated",
      describe: "Output folder whose openapi.json a git ref without specs is read from",
    },
    format: {
      choices: REPORT_FORMATS,
      default: "text",
      describe: "text, markdown (for a pull-request comment) or json",
    },
    "fail-on-breaking": {
      type: "boolean",
      defaultDescription: "false",
      describe: "Exit 4 when a change breaks callers",
    },
  },
  examples: [
    ["$0 diff", "What the specs in the working tree change since HEAD"],
    ["$0 diff --base origin/main --format markdown", "A pull-request comment"],
  ],
  async run(args, { cwd, io }) {
    const { diffVersions } = await import("../diff/diff-versions.js");
    const { ContractSourceError } = await import("../diff/read-contract.js");
    // The specs and output folders, and failOnBreaking, as generate reads them: flags, then the config file.
    const loaded = await loadConfig(cwd, args["config"] as string | undefined);
    if (!loaded.ok)
      return reportIssues(
        io,
        loaded.issues,
        (count) => `flowgen diff: ${count}; nothing was compared.`,
      );
    const given = {
      specs: args["specs"] as string | undefined,
      out: args["out"] as string | undefined,
      failOnBreaking: args["failOnBreaking"] as boolean | undefined,
    };
    const resolved = resolveGenerateSettings(loaded, cwd, given);
    if (!resolved.ok)
      return reportIssues(
        io,
        resolved.issues,
        (count) => `flowgen diff: ${count}; nothing was compared.`,
      );
    const { specs, out, failOnBreaking, rules } = resolved.settings;
    try {
      const result = await diffVersions({
        cwd,
        specs,
        out,
        rules,
        base: args["base"] as string,
        head: args["head"] as string | undefined,
      });
      if (!result.ok)
        return reportIssues(
          io,
          result.issues,
          (count) => `flowgen diff: ${count} in the specs; nothing was compared.`,
        );
      io.out(formatDiffReport(result.report, args["format"] as ReportFormat).trimEnd());
      return failOnBreaking && result.report.breaking > 0 ? EXIT.breaking : EXIT.ok;
    } catch (error) {
      if (error instanceof ContractSourceError) {
        io.err(withCode(`flowgen diff: ${error.message}`, "unreadable-contract"));
        return EXIT.invalid;
      }
      throw error;
    }
  },
};
