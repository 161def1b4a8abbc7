import type { LoadResult } from "../spec/load-specs.js";
import type { Run } from "./open-run.js";
import { readCheckEntry, rememberCheck, type FlowKeys } from "./run-keys.js";

/**
 * Checks the specs, but not those this machine's cache saw pass (or, trusted, the manifest
 * records): this flowgen checked them. Warnings include those their check entries kept.
 *
 * @example
 * const checked = await checkFlows(run, run.keys.hashFlows());
 */
export async function checkFlows(run: Run, flows: FlowKeys): Promise<LoadResult> {
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
  const checked = run.times.measure("checks", () =>
    checkSpecs(sources, { trusted, parsedBefore, rules: run.options.rules }),
  );
  // The cache entry of a flow that passed keeps its warnings: a run that trusts it says them again.
  const warnings = [
    ...checked.warnings,
    ...relPaths.flatMap((relPath, i) =>
      trusted.has(relPath) ? readCheckEntry(cache.get(flows.checks[i] ?? "")) : [],
    ),
  ];
  if (!checked.ok) return { ...checked, warnings };
  const displayPaths = new Map(sources.flows.map((flow) => [flow.relPath, flow.displayPath]));
  relPaths.forEach((relPath, i) => {
    const own = warnings.filter((warning) => warning.file === displayPaths.get(relPath));
    rememberCheck(cache, flows.checks[i] ?? "", own);
  });
  return { ...checked, warnings };
}
