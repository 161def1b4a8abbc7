import type { GenerateSettings } from "../config/resolve-settings.js";
import type { Issue } from "../issues.js";
import { buildModel, type ProjectModel } from "../model/build-model.js";
import { checkSpecs } from "../spec/load-specs.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import type { VerifyOptions, VerifyResult } from "../api/verify.js";
import { createPlanValidators, planFlowCases, type PlannedCase } from "./plan-cases.js";
import { SYSTEM_CLOCK } from "./platform-pace.js";
import { createRedactor, redactValue } from "./redact-key.js";
import { describeCase, runCases } from "./run-verify.js";
import { selectFlows } from "./select-flows.js";
import {
  checkVerifyTarget,
  checkVerifyNumbers,
  VERIFY_DEFAULTS,
  type VerifyNumbers,
} from "./verify-options.js";
import { summarizeReport, type CaseResult } from "./verify-report.js";

/**
 * The run `verify()` starts once the config is read: options checked, specs loaded and checked,
 * flows selected, cases planned, then sent (or, dry, listed) and reported with the key redacted.
 *
 * @example
 * const result = await verifyProject({ cwd, baseUrl, apiKey }, settings);
 */
export async function verifyProject(
  options: VerifyOptions & { readonly cwd: string },
  project: Pick<GenerateSettings, "specs" | "baseUrl" | "rules"> & {
    /** The config file the settings came from, shown as where a bad base URL was given. */
    readonly configFile?: string | undefined;
  },
): Promise<VerifyResult> {
  const { cwd, env = process.env } = options;
  const dryRun = options.dryRun ?? false;
  const numbers = checkVerifyNumbers(options);
  // An empty variable is an unset one (what a CI secret that is not defined expands to).
  const fromEnv = env["FLOW_BASE_URL"] || undefined;
  const target = checkVerifyTarget({
    baseUrl: options.baseUrl ?? fromEnv ?? project.baseUrl,
    baseUrlFrom:
      options.baseUrl !== undefined
        ? "--base-url"
        : fromEnv !== undefined
          ? "FLOW_BASE_URL"
          : project.baseUrl !== undefined
            ? `${project.configFile ?? "the config"} #/baseUrl`
            : "--base-url",
    apiKey: options.apiKey ?? (env["FLOW_API_KEY"] || undefined),
    dryRun,
  });
  const issues = [...numbers.issues, ...target.issues];
  if (issues.length > 0 || numbers.settings === undefined || target.baseUrl === undefined)
    return { ok: false, issues };
  // The config's rules, as generate has them: a spec generate accepts is one verify can check.
  const checked = checkSpecs(await readSpecFiles(project.specs, cwd), { rules: project.rules });
  if (!checked.ok) return checked;
  const model = buildModel(checked.specs);
  const selected = selectFlows(
    model.flows.map((flow) => flow.id),
    options.flows ?? [],
  );
  if (!selected.ok) return selected;
  const settings = numbers.settings;
  const { cases, notes } = await planCases(model, selected.ids, target.baseUrl, settings);
  if (!dryRun && cases.length > settings.maxRequests)
    return { ok: false, issues: [overBudget(cases.length, settings.maxRequests)] };
  const run = {
    baseUrl: target.baseUrl,
    seed: settings.seed,
    dryRun,
    maxRequests: settings.maxRequests,
  };
  const { results, requests, refusedKey } = dryRun
    ? { results: cases.map(planCase), requests: 0, refusedKey: undefined }
    : await runCases(cases, {
        ...settings,
        apiKey: target.apiKey ?? "",
        maxRetries: VERIFY_DEFAULTS.maxRetries,
        maxWaitMs: VERIFY_DEFAULTS.maxWaitMs,
        maxTotalWaitMs: VERIFY_DEFAULTS.maxTotalWaitMs,
        clock: options.clock ?? SYSTEM_CLOCK,
      });
  if (refusedKey !== undefined)
    return { ok: false, issues: [keyRefused(refusedKey, target.baseUrl, requests)] };
  const report = summarizeReport({ ...run, requests }, selected.ids, results, notes);
  return { ok: true, report: redactValue(report, createRedactor(target.apiKey)) };
}

/** Every selected flow's cases, in flow order, and a note for each flow some input could not be generated for. */
async function planCases(
  model: ProjectModel,
  ids: readonly string[],
  baseUrl: string,
  settings: VerifyNumbers,
): Promise<{ cases: PlannedCase[]; notes: Map<string, string[]> }> {
  const validators = createPlanValidators(model);
  const cases: PlannedCase[] = [];
  const notes = new Map<string, string[]>();
  for (const flow of model.flows.filter((candidate) => ids.includes(candidate.id))) {
    const plan = await planFlowCases(model, flow, baseUrl, validators, settings);
    cases.push(...plan.cases);
    if (plan.ungenerated.length > 0)
      notes.set(flow.id, [
        `generated ${plan.ungenerated.join(", ")}: no value json-schema-faker drew was valid against the input schema, so ${plan.ungenerated.length === 1 ? "it was" : "they were"} not sent; add examples to the spec instead`,
      ]);
  }
  return { cases, notes };
}

function overBudget(needed: number, maxRequests: number): Issue {
  return {
    code: "invalid-option",
    file: "--max-requests",
    message: `the run needs ${needed} requests (before any retry), more than the budget of ${maxRequests}; select fewer flows, lower --generate, or raise --max-requests`,
  };
}

function keyRefused(refused: PlannedCase, baseUrl: string, requests: number): Issue {
  const path = new URL(refused.url).pathname;
  return {
    code: "key-refused",
    file: "FLOW_API_KEY",
    message: `the platform at ${baseUrl} refused the key: POST ${path} with it answered 401; set FLOW_API_KEY to a key this platform issued (and check --base-url). flowgen verify stopped after ${requests} request${requests === 1 ? "" : "s"} and checked nothing`,
  };
}

function planCase(planned: PlannedCase): CaseResult {
  return { ...describeCase(planned), outcome: "planned", attempts: 0, violations: [] };
}
