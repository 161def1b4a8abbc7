import type { Issue } from "../issues.js";
import type { DeferredExamples, LoadResult, SpecSet } from "../spec/load-specs.js";
import type { SchemaFinding } from "../spec/schema-refs.js";
import { inThreadPool } from "../workers/stage-pool.js";
import type { Run } from "./open-run.js";
import { readCheckEntry, rememberCheck, type FlowKeys } from "./run-keys.js";

/** The outcome of the checks once the deferred ones are made too: the warnings, or the problems. */
export type SettledChecks =
  | { readonly ok: true; readonly warnings: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[]; readonly warnings: readonly Issue[] };

/**
 * The checks of a run whose other checks passed, with the costly ones still to make: those of
 * the values in the flows' schemas (`checkValues` makes them on this thread, when it has nothing
 * else to do) and of the flows' examples, running on a worker thread. `settle` waits for both, and
 * records in the cache the flows that passed. `takeSpecs` hands the checked specs over once: the
 * run keeps the model it builds from them, and their parsed values (as large as the specs) need
 * not live to the end of the run.
 */
export type FlowChecks =
  | Extract<LoadResult, { ok: false }>
  | {
      readonly ok: true;
      readonly warnings: readonly Issue[];
      takeSpecs(): SpecSet;
      checkValues(): void;
      settle(): Promise<SettledChecks>;
    };

/**
 * Checks the specs, but not those this machine's cache saw pass (or, trusted, the manifest
 * records): this flowgen checked them. Warnings include those their check entries kept. A run
 * with worker threads has them check the examples while it renders, and leaves the checks of the
 * flows' values for `checkValues` (`settle` for the outcome).
 *
 * @example
 * const checking = await checkFlows(run, run.keys.hashFlows());
 * if (checking.ok) await checking.settle();
 */
export async function checkFlows(run: Run, flows: FlowKeys): Promise<FlowChecks> {
  const { cache, sources } = run;
  // The checks load Ajv, YAML and JSONC parsers: not needed when the run key hit.
  const { checkSpecs } = await import("../spec/load-specs.js");
  const relPaths = Object.keys(flows.inputs);
  const parsedBefore = new Set(
    relPaths.filter((_, i) => cache.get(flows.checks[i] ?? "") !== undefined),
  );
  const trusted = new Set(
    relPaths.filter(
      (relPath) =>
        parsedBefore.has(relPath) ||
        (run.reusable !== undefined && flows.inputs[relPath] === run.reusable.flows[relPath]),
    ),
  );
  const deferChecks = run.pool !== undefined;
  const checked = run.times.measure("checks", () =>
    checkSpecs(sources, { trusted, parsedBefore, rules: run.options.rules, deferChecks }),
  );
  // The cache entry of a flow that passed keeps its warnings: a run that trusts it says them again.
  const warnings = [
    ...checked.warnings,
    ...relPaths.flatMap((relPath, i) =>
      trusted.has(relPath) ? readCheckEntry(cache.get(flows.checks[i] ?? "")) : [],
    ),
  ];
  if (!checked.ok) return { ...checked, warnings };
  let specs: SpecSet | undefined = checked.specs;
  const { values, examples } = checked;
  const examplesChecked = checkExamples(run, examples);
  const checkValues = () => run.times.measure("checks", () => values?.check());
  const settle = async (): Promise<SettledChecks> => {
    const found = [
      checkValues() ?? { errors: [], warnings: [] },
      examples?.place(await examplesChecked) ?? { errors: [], warnings: [] },
    ];
    const errors = found.flatMap((triaged) => triaged.errors);
    const all = [...warnings, ...found.flatMap((triaged) => triaged.warnings)];
    if (errors.length > 0) return { ok: false, issues: errors, warnings: all };
    rememberChecks(run, flows, all);
    return { ok: true, warnings: all };
  };
  const takeSpecs = (): SpecSet => {
    if (specs === undefined) throw new Error("the checked specs were handed over already");
    const taken = specs;
    specs = undefined;
    return taken;
  };
  return { ok: true, warnings, takeSpecs, checkValues, settle };
}

/** The deferred example checks, on the run's worker threads. */
function checkExamples(
  run: Run,
  examples: DeferredExamples | undefined,
): Promise<readonly SchemaFinding[]> {
  if (examples === undefined) return Promise.resolve([]);
  const found = (async () => {
    const pool = (await run.pool) ?? inThreadPool();
    const findings = await Promise.all(examples.tasks.map((task) => pool.run(task)));
    return findings.flat();
  })();
  // Awaited by `settle`; a run that fails before it settles does not leave the rejection unheard.
  found.catch(() => undefined);
  return found;
}

/** Records that each flow passed the checks, with its own warnings. */
function rememberChecks(run: Run, flows: FlowKeys, warnings: readonly Issue[]): void {
  const displayPaths = new Map(run.sources.flows.map((flow) => [flow.relPath, flow.displayPath]));
  Object.keys(flows.inputs).forEach((relPath, i) => {
    const own = warnings.filter((warning) => warning.file === displayPaths.get(relPath));
    rememberCheck(run.cache, flows.checks[i] ?? "", own);
  });
}
