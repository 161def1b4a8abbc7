import type { ContractChange, DiffReport } from "./contract-diff.js";

export type ReportFormat = "text" | "markdown" | "json";

export const REPORT_FORMATS: readonly ReportFormat[] = ["text", "markdown", "json"];

/**
 * Renders a report: `text` for terminals (one line per change), `markdown` for a pull-request
 * comment, `json` for tools. Every format ends with a newline.
 *
 * @example
 * process.stdout.write(formatDiffReport(diffContracts(base, head), "markdown"));
 */
export function formatDiffReport(report: DiffReport, format: ReportFormat): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  return format === "markdown" ? markdownReport(report) : textReport(report);
}

/**
 * One change as one line.
 *
 * @example
 * formatChange(change); // '@acme/qa #/input/required: "lang" is now required (breaking for callers)'
 */
export function formatChange(change: ContractChange): string {
  const where = change.pointer === "" ? "" : ` #${change.pointer}`;
  return `${change.flow}${where}: ${change.message} (${change.kind === "breaking" ? "breaking for callers" : "compatible"})`;
}

/**
 * The counts of a report, for summary lines.
 *
 * @example
 * countChanges(report); // "2 breaking changes, 1 compatible change"
 */
export function countChanges(report: DiffReport): string {
  const plural = (n: number, what: string) => `${n} ${what} change${n === 1 ? "" : "s"}`;
  return `${plural(report.breaking, "breaking")}, ${plural(report.compatible, "compatible")}`;
}

function textReport(report: DiffReport): string {
  const lines = report.changes.map(formatChange);
  if (report.deprecated.length > 0)
    lines.push(`Deprecated flows (compatible until removed): ${report.deprecated.join(", ")}`);
  lines.push(
    `Contract ${report.base} → ${report.head}: ${report.changes.length === 0 ? "no changes" : countChanges(report)}`,
  );
  return `${lines.join("\n")}\n`;
}

function markdownReport(report: DiffReport): string {
  const lines = [
    `### flowgen: ${report.changes.length === 0 ? "no contract changes" : countChanges(report)}`,
    "",
    `Comparing ${code(report.base)} → ${code(report.head)}.`,
  ];
  for (const [kind, title] of [
    ["breaking", "Breaking for callers"],
    ["compatible", "Compatible"],
  ] as const) {
    const rows = report.changes.filter((change) => change.kind === kind);
    if (rows.length === 0) continue;
    lines.push("", `#### ${title}`, "", "| Flow | Where | Change |", "| --- | --- | --- |");
    for (const change of rows)
      lines.push(
        `| ${code(change.flow)} | ${change.pointer === "" ? "" : code(`#${change.pointer}`)} | ${escapeMarkdown(change.message)} |`,
      );
  }
  if (report.deprecated.length > 0)
    lines.push(
      "",
      `Deprecated flows (compatible until removed): ${report.deprecated.map(code).join(", ")}`,
    );
  return `${lines.join("\n")}\n`;
}

/**
 * A code span for text from specs (GFM §6.1): a fence longer than any backtick run inside, and `|`
 * escaped, which GFM tables require even inside code.
 */
function code(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ").replaceAll("|", "\\|");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Messages quote names and values from specs: no character of theirs may turn into Markdown or HTML. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[\\`*_[\]<>|~&]/g, (char) => `\\${char}`);
}
