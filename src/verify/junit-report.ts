import type { CaseResult, FlowReport, VerifyReport } from "./verify-report.js";

/**
 * JUnit XML, the test report format CI systems read: one `<testsuite>` per flow, one
 * `<testcase>` per case. A contract violation is a `<failure>`, a case without an answer an
 * `<error>`, one not sent `<skipped>`.
 *
 * @example
 * await writeFile("verify.xml", formatJunitReport(report));
 */
export function formatJunitReport(report: VerifyReport): string {
  const { totals } = report;
  const seconds = (flow: FlowReport) =>
    flow.cases.reduce((sum, result) => sum + (result.durationMs ?? 0), 0) / 1000;
  const time = report.flows.reduce((sum, flow) => sum + seconds(flow), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="flowgen verify" tests="${totals.cases}" failures="${totals.failed}" errors="${totals.unanswered}" skipped="${totals.skipped}" time="${time.toFixed(3)}">`,
  ];
  for (const flow of report.flows) {
    const count = (outcome: CaseResult["outcome"]) =>
      flow.cases.filter((result) => result.outcome === outcome).length;
    lines.push(
      `  <testsuite name="${escapeXml(flow.flowId)}" tests="${flow.cases.length}" failures="${count("failed")}" errors="${count("unanswered")}" skipped="${count("skipped") + count("planned")}" time="${seconds(flow).toFixed(3)}">`,
      `    <properties><property name="baseUrl" value="${escapeXml(report.baseUrl)}"/><property name="seed" value="${report.seed}"/></properties>`,
    );
    for (const result of flow.cases) lines.push(...formatCase(result));
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return lines.join("\n");
}

function formatCase(result: CaseResult): string[] {
  const open = `    <testcase classname="${escapeXml(result.flowId)}" name="${escapeXml(result.name)}" time="${((result.durationMs ?? 0) / 1000).toFixed(3)}"`;
  const request = `POST ${result.request.url}${result.request.withKey ? "" : " without a key"}\n${JSON.stringify(result.request.input)}`;
  switch (result.outcome) {
    case "passed":
      return [`${open}/>`];
    case "failed": {
      const first = result.violations[0];
      const message = first === undefined ? "" : `#${first.pointer}: expected ${first.expected}`;
      const body = [
        request,
        `status ${result.status ?? "none"}`,
        ...result.violations.map(
          (violation) =>
            `#${violation.pointer}: expected ${violation.expected}; got ${violation.actual}`,
        ),
      ].join("\n");
      return [
        `${open}>`,
        `      <failure type="contract-violation" message="${escapeXml(message)}">${escapeXml(body)}</failure>`,
        "    </testcase>",
      ];
    }
    case "unanswered":
      return [
        `${open}>`,
        `      <error type="unanswered" message="${escapeXml(result.reason ?? "")}">${escapeXml(request)}</error>`,
        "    </testcase>",
      ];
    case "skipped":
    case "planned":
      return [
        `${open}>`,
        `      <skipped message="${escapeXml(result.reason ?? "dry run: not sent")}"/>`,
        "    </testcase>",
      ];
  }
}

/**
 * Text for an XML attribute or element: the five special characters escaped, and characters XML
 * 1.0 cannot hold at all (most control characters, lone surrogates) replaced by U+FFFD, so an
 * answer full of them still gives a report CI can parse.
 */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
