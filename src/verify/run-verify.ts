import { checkAnswer } from "./check-answer.js";
import { createRedactor } from "./redact-key.js";
import type { PlannedCase } from "./plan-cases.js";
import { createBudget, createPace, type VerifyClock } from "./platform-pace.js";
import { sendRequest, type SendContext } from "./send-request.js";
import type { CaseResult } from "./verify-report.js";

export interface RunOptions {
  readonly apiKey: string;
  readonly concurrency: number;
  readonly maxRequests: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxWaitMs: number;
  readonly maxTotalWaitMs: number;
  readonly clock: VerifyClock;
}

/**
 * Sends every planned case with at most `concurrency` in flight and checks each answer. Results
 * come back in the order of `cases`, whatever order the answers arrived in. Once the platform
 * cannot be reached, or the budget is spent, the cases not yet sent are skipped: hammering an
 * unreachable or saturated platform tells nobody anything; so does a 401 to a call carrying the
 * key (`refusedKey`: the first case it happened to).
 *
 * @example
 * const { results, requests } = await runCases(cases, { apiKey, concurrency: 4, maxRequests: 500, … });
 */
export async function runCases(
  cases: readonly PlannedCase[],
  options: RunOptions,
): Promise<{ results: CaseResult[]; requests: number; refusedKey: PlannedCase | undefined }> {
  const budget = createBudget(options.maxRequests);
  const context: SendContext = {
    clock: options.clock,
    pace: createPace(options.clock, options.maxWaitMs),
    budget,
    maxRequests: options.maxRequests,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    maxWaitMs: options.maxWaitMs,
    maxTotalWaitMs: options.maxTotalWaitMs,
    redact: createRedactor(options.apiKey),
  };
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  let next = 0;
  let stopped: string | undefined;
  let refusedKey: PlannedCase | undefined;
  const work = async () => {
    for (let index = next++; index < cases.length; index = next++) {
      const planned = cases[index] as PlannedCase;
      if (stopped !== undefined) {
        results[index] = {
          ...describeCase(planned),
          outcome: "skipped",
          attempts: 0,
          violations: [],
          reason: stopped,
        };
        continue;
      }
      const result = await runCase(planned, options.apiKey, context);
      results[index] = result.result;
      if (result.stop !== undefined) stopped ??= result.stop;
      if (result.refusedKey) refusedKey ??= planned;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, work));
  return { results, requests: budget.used, refusedKey };
}

async function runCase(
  planned: PlannedCase,
  apiKey: string,
  context: SendContext,
): Promise<{ result: CaseResult; stop?: string | undefined; refusedKey?: boolean }> {
  const exchange = await sendRequest(
    planned.url,
    planned.input,
    planned.withKey ? apiKey : undefined,
    context,
  );
  const described = describeCase(planned);
  if (!exchange.ok) {
    const result: CaseResult = {
      ...described,
      outcome: "unanswered",
      status: exchange.answer?.status,
      attempts: exchange.attempts,
      violations: [],
      reason: exchange.reason,
    };
    const spent = context.budget.used >= context.maxRequests;
    const stop = exchange.unreachable
      ? `not sent: an earlier request ${exchange.reason.replace(/;.*$/, "")}`
      : spent
        ? `not sent: the request budget (--max-requests ${context.maxRequests}) was spent`
        : undefined;
    return { result, stop };
  }
  // A keyed call answered 401 says nothing about the contract: the platform refused the key, and
  // would refuse every other call too.
  if (planned.withKey && exchange.answer.status === 401)
    return {
      result: {
        ...described,
        outcome: "unanswered",
        status: 401,
        attempts: exchange.attempts,
        violations: [],
        reason: "the platform refused the key (401)",
      },
      stop: "not sent: the platform refused the key",
      refusedKey: true,
    };
  const violations = checkAnswer(exchange.answer, planned.expectation, context.redact);
  return {
    result: {
      ...described,
      outcome: violations.length === 0 ? "passed" : "failed",
      status: exchange.answer.status,
      durationMs: exchange.answer.durationMs,
      attempts: exchange.attempts,
      violations,
    },
  };
}

/**
 * The parts of a result a plan already knows; a dry run reports these as `planned`.
 *
 * @example
 * const result: CaseResult = { ...describeCase(planned), outcome: "planned", attempts: 0, violations: [] };
 */
export function describeCase(
  planned: PlannedCase,
): Pick<CaseResult, "flowId" | "name" | "kind" | "expects" | "request"> {
  return {
    flowId: planned.flowId,
    name: planned.name,
    kind: planned.kind,
    expects: planned.expects,
    request: { method: "POST", url: planned.url, withKey: planned.withKey, input: planned.input },
  };
}
