import { formatIssue, sortIssues, type Issue, type Rules } from "../issues.js";
import { buildModel, type ProjectModel } from "../model/build-model.js";
import { checkSpecs } from "../spec/load-specs.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import { compileFlowChecks, type FlowChecks } from "./flow-checks.js";

/** The model a server answers from, with each flow's request checks compiled. */
export type ServedModel = {
  readonly ok: true;
  readonly model: ProjectModel;
  readonly checks: ReadonlyMap<string, FlowChecks>;
};

/** Where the specs are, and the severities the project chose for their checks. */
export interface ServedSpecs {
  readonly specs: string;
  readonly cwd: string;
  /** The config file's `rules`, as generate honours them. */
  readonly rules?: Rules | undefined;
}

/**
 * Reads and checks the specs as `flowgen generate` does (problems the rules make warnings go to
 * `say`), builds the model and compiles each flow's request checks; a schema they cannot compile
 * is a spec problem, reported like the others.
 *
 * @example
 * const served = await readServedModel({ specs: "specs", cwd: process.cwd() }, console.error);
 * if (!served.ok) for (const issue of served.issues) console.error(issue.message);
 */
export async function readServedModel(
  { specs, cwd, rules }: ServedSpecs,
  say: (line: string) => void,
): Promise<ServedModel | { readonly ok: false; readonly issues: readonly Issue[] }> {
  const checked = checkSpecs(await readSpecFiles(specs, cwd), { rules });
  sayWarnings(checked.warnings, say);
  if (!checked.ok) return checked;
  const model = buildModel(checked.specs);
  const compiled = compileFlowChecks(model);
  const files = new Map(checked.specs.flows.map((flow) => [flow.id, flow.displayPath]));
  if (compiled.ok) {
    sayWarnings(
      compiled.unsupported.map(({ flow, which, source, reason }) => ({
        code: "nonlinear-pattern",
        file: files.get(flow.id) ?? flow.specPath,
        pointer: `/${which}`,
        message: `the pattern ${JSON.stringify(source)} needs a feature serve's linear-time engine (RE2) lacks (${reason}), so serve refuses every value it checks (400); write it without back-references or look-arounds`,
      })),
      say,
    );
    return { ok: true, model, checks: compiled.checks };
  }
  const issues = compiled.failures.map(({ flow, which, message }): Issue => ({
    code: "invalid-schema",
    file: files.get(flow.id) ?? flow.specPath,
    pointer: `/${which}`,
    message: `the ${which} schema cannot be compiled for request checks: ${message}; fix the schema (a "pattern" must be an ECMAScript regular expression with the u flag)`,
  }));
  return { ok: false, issues };
}

/**
 * A call to show people: the first flow with an example, and that example's input.
 *
 * @example
 * sampleCall(model); // { flowId: "@acme/qa", input: { question: "…" } }
 */
export function sampleCall(model: ProjectModel): { flowId: string; input: unknown } {
  const flow =
    model.flows.find((candidate) => (candidate.examples?.length ?? 0) > 0) ?? model.flows[0];
  return { flowId: flow?.id ?? "@org/flow", input: flow?.examples?.[0]?.input ?? {} };
}

/** Problems the rules make warnings: each on its own line, marked as a warning. */
function sayWarnings(warnings: readonly Issue[], say: (line: string) => void): void {
  for (const warning of sortIssues(warnings)) say(`warning: ${formatIssue(warning)}`);
}
