import { showJson } from "./check-answer.js";
import { formatJunitReport } from "./junit-report.js";
import type { CaseResult, FlowReport, Timings, VerifyReport } from "./verify-report.js";

export const VERIFY_FORMATS = ["text", "json", "junit"] as const;
export type VerifyFormat = (typeof VERIFY_FORMATS)[number];

/**
 * The report as people read it (text), as data (json), or as JUnit XML for CI test reports.
 *
 * @example
 * io.out(formatVerifyReport(report, "junit"));
 */
export function formatVerifyReport(report: VerifyReport, format: VerifyFormat): string {
  switch (format) {
    case "json":
      return JSON.stringify(report, null, 2);
    case "junit":
      return formatJunitReport(report);
    case "text":
      return report.dryRun ? formatPlan(report) : formatText(report);
  }
}

function formatText(report: VerifyReport): string {
  const lines = [`flowgen verify: ${report.baseUrl}, seed ${report.seed}`];
  for (const flow of report.flows) {
    lines.push(`${flow.outcome === "passed" ? "✓" : "✗"} ${flow.flowId}: ${describeFlow(flow)}`);
    for (const note of flow.notes) lines.push(`  note: ${note}`);
    for (const result of flow.cases) {
      if (result.outcome === "passed") continue;
      lines.push(...describeCaseLines(result));
    }
  }
  const { totals } = report;
  const generated = report.flows.some((flow) =>
    flow.cases.some((result) => result.kind === "generated"),
  );
  lines.push(
    `flowgen verify: ${totals.passed} passed, ${totals.failed} failed, ${totals.unanswered} unanswered, ${totals.skipped} skipped in ${report.flows.length} flow${report.flows.length === 1 ? "" : "s"}; ${report.requests} request${report.requests === 1 ? "" : "s"} of at most ${report.maxRequests}${generated ? `; replay the generated inputs with --seed ${report.seed}` : ""}`,
  );
  return lines.join("\n");
}

function describeFlow(flow: FlowReport): string {
  const count = (outcome: CaseResult["outcome"]) =>
    flow.cases.filter((result) => result.outcome === outcome).length;
  const parts = [`${count("passed")} of ${flow.cases.length} passed`];
  if (count("failed") > 0) parts.push(`${count("failed")} failed`);
  if (count("unanswered") > 0) parts.push(`${count("unanswered")} unanswered`);
  if (count("skipped") > 0) parts.push(`${count("skipped")} skipped`);
  return `${parts.join(", ")}${describeTimings(flow.timings)}`;
}

function describeTimings(timings: Timings | undefined): string {
  return timings === undefined ? "" : ` (p50 ${timings.p50Ms} ms, p95 ${timings.p95Ms} ms)`;
}

function describeCaseLines(result: CaseResult): string[] {
  const status = result.status === undefined ? "" : ` → ${result.status}`;
  const lines = [`  ${result.outcome}: ${result.name}: ${describeRequest(result)}${status}`];
  if (result.reason !== undefined) lines.push(`    ${result.reason}`);
  for (const violation of result.violations)
    lines.push(
      `    #${violation.pointer}: expected ${violation.expected}; got ${violation.actual}`,
    );
  return lines;
}

function describeRequest(result: CaseResult): string {
  const path = new URL(result.request.url).pathname;
  return `POST ${path}${result.request.withKey ? "" : " without a key"} ${showJson(result.request.input)}`;
}

function formatPlan(report: VerifyReport): string {
  const count = report.totals.cases;
  const lines = [
    `flowgen verify --dry-run: would send ${count} request${count === 1 ? "" : "s"} (before retries; at most ${report.maxRequests}) to ${report.baseUrl}, seed ${report.seed}; nothing was sent`,
  ];
  for (const flow of report.flows) {
    lines.push(flow.flowId, ...flow.notes.map((note) => `  note: ${note}`));
    for (const result of flow.cases)
      lines.push(
        `  ${result.name}: POST ${result.request.url} ${result.request.withKey ? "with Authorization: Bearer $FLOW_API_KEY" : "without Authorization"} ${JSON.stringify(result.request.input)} → expects ${result.expects}`,
      );
  }
  return lines.join("\n");
}
