/**
 * What `flowgen verify` found, as plain data: the CLI prints it (text, JSON, JUnit) and the
 * package API returns it. The API key appears nowhere in it.
 */

/** Where a case's input came from. */
export type CaseKind = "example" | "generated" | "negative" | "no-key";

/**
 * - `passed`: the answer kept the contract;
 * - `failed`: it broke it (see `violations`);
 * - `unanswered`: no answer to judge: the platform could not be reached, timed out, or kept
 *   refusing (429, 503) past the retries, the longest wait or the request budget;
 * - `skipped`: not sent, because the run stopped first (the platform was unreachable, or the
 *   budget was spent);
 * - `planned`: `--dry-run`: what would be sent.
 */
export type CaseOutcome = "passed" | "failed" | "unanswered" | "skipped" | "planned";

/** One way an answer broke the contract. */
export interface Violation {
  /** JSON pointer (RFC 6901) into the answer's body; "" for the answer as a whole (its status, its media type). */
  readonly pointer: string;
  /** What the contract or the schema says. */
  readonly expected: string;
  /** What came back. */
  readonly actual: string;
}

/** The request of a case, as sent; the key is never part of it, only whether one was sent. */
export interface CaseRequest {
  readonly method: "POST";
  readonly url: string;
  readonly withKey: boolean;
  readonly input: unknown;
}

export interface CaseResult {
  readonly flowId: string;
  /** `example "open question"`, `generated 2`, `negative: /question missing`, `no key`. */
  readonly name: string;
  readonly kind: CaseKind;
  /** What the answer must be: "2xx JSON valid against the output schema", … */
  readonly expects: string;
  readonly request: CaseRequest;
  readonly outcome: CaseOutcome;
  /** The status of the last answer, when there was one. */
  readonly status?: number | undefined;
  /** Milliseconds the last attempt took, from sending to the end of the body. */
  readonly durationMs?: number | undefined;
  /** Requests sent for this case, retries included. */
  readonly attempts: number;
  readonly violations: readonly Violation[];
  /** Why the case is unanswered or skipped. */
  readonly reason?: string | undefined;
}

export interface Timings {
  readonly p50Ms: number;
  readonly p95Ms: number;
}

export type FlowOutcome = "passed" | "failed" | "unanswered" | "planned";

export interface FlowReport {
  readonly flowId: string;
  readonly outcome: FlowOutcome;
  readonly cases: readonly CaseResult[];
  /** Over the answered cases; undefined when none was answered. */
  readonly timings: Timings | undefined;
  /** What the run could not do for this flow without it being the platform's fault (an input it could not generate). */
  readonly notes: readonly string[];
}

export interface VerifyTotals {
  readonly cases: number;
  readonly passed: number;
  readonly failed: number;
  readonly unanswered: number;
  readonly skipped: number;
}

export interface VerifyReport {
  /** The base URL every request went to. */
  readonly baseUrl: string;
  /** Seed of the generated inputs: `--seed` replays them. */
  readonly seed: number;
  readonly dryRun: boolean;
  /**
   * `passed`: every case passed (or, with `dryRun`, the plan is ready); `failed`: some answer broke
   * the contract; `unanswered`: none did, but some cases got no answer to judge.
   */
  readonly outcome: "passed" | "failed" | "unanswered";
  /** HTTP requests sent (retries included), and the budget they were held to. */
  readonly requests: number;
  readonly maxRequests: number;
  readonly flows: readonly FlowReport[];
  readonly totals: VerifyTotals;
}

/**
 * Groups case results by flow (in the order given) and works out outcomes, totals and timings.
 *
 * @example
 * const report = summarizeReport({ baseUrl, seed: 1, dryRun: false, requests: 4, maxRequests: 100 }, flowIds, results);
 */
export function summarizeReport(
  run: Pick<VerifyReport, "baseUrl" | "seed" | "dryRun" | "requests" | "maxRequests">,
  flowIds: readonly string[],
  results: readonly CaseResult[],
  notes: ReadonlyMap<string, readonly string[]> = new Map(),
): VerifyReport {
  const flows = flowIds.map((flowId): FlowReport => {
    const cases = results.filter((result) => result.flowId === flowId);
    const timings = measureTimings(cases);
    return { flowId, outcome: flowOutcome(cases), cases, timings, notes: notes.get(flowId) ?? [] };
  });
  const count = (outcome: CaseOutcome) =>
    results.filter((result) => result.outcome === outcome).length;
  const totals: VerifyTotals = {
    cases: results.length,
    passed: count("passed"),
    failed: count("failed"),
    unanswered: count("unanswered"),
    skipped: count("skipped"),
  };
  const outcome =
    totals.failed > 0 ? "failed" : totals.unanswered + totals.skipped > 0 ? "unanswered" : "passed";
  return { ...run, outcome, flows, totals };
}

function flowOutcome(cases: readonly CaseResult[]): FlowOutcome {
  if (cases.some((result) => result.outcome === "failed")) return "failed";
  if (cases.some((result) => result.outcome === "unanswered" || result.outcome === "skipped"))
    return "unanswered";
  return cases.some((result) => result.outcome === "planned") ? "planned" : "passed";
}

/**
 * p50 and p95 by the nearest-rank method over the answered cases' last attempts.
 *
 * @example
 * measureTimings(cases); // { p50Ms: 12, p95Ms: 40 }
 */
export function measureTimings(cases: readonly CaseResult[]): Timings | undefined {
  const durations = cases
    .map((result) => result.durationMs)
    .filter((ms): ms is number => ms !== undefined)
    .sort((a, b) => a - b);
  if (durations.length === 0) return undefined;
  const rank = (p: number) => durations[Math.max(0, Math.ceil(p * durations.length) - 1)] ?? 0;
  return { p50Ms: rank(0.5), p95Ms: rank(0.95) };
}
