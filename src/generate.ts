import path from "node:path";
import type { DiffReport } from "./diff/contract-diff.js";
import { contractProvenance } from "./diff/contract-provenance.js";
import { checkOutputContract, type RenderedContract } from "./diff/output-contract.js";
import { RUNTIME_EXPORTS } from "./emit/runtime-exports.js";
import { compareText, type Issue } from "./issues.js";
import { buildManifest, MANIFEST_PATH } from "./manifest/output-manifest.js";
import { buildModel, type ProjectModel } from "./model/build-model.js";
import type { OutputFile } from "./output-file.js";
import { produceFiles, type Planned } from "./produce-files.js";
import { checkFlows } from "./render/check-flows.js";
import type { GenerateOptions } from "./render/generate-options.js";
import { readKeptFiles } from "./render/manifest-output.js";
import {
  endThreads,
  openRun,
  POOL_THRESHOLD,
  recallFiles,
  startThreads,
  trustRun,
  type Run,
} from "./render/open-run.js";
import { planFiles, withFormatOptions } from "./render/plan-files.js";
import { rememberRun, type FlowKeys } from "./render/run-keys.js";
import { readSpecFiles, type SpecSources } from "./spec/read-spec-files.js";
import { createStageTimes, type StageTimes } from "./stage-times.js";
import { untilAborted } from "./until-aborted.js";
import { ValidatorCompileError } from "./validators/validator-compile-error.js";
import { inThreadPool } from "./workers/stage-pool.js";

export type { GenerateOptions } from "./render/generate-options.js";
export { readCurrentOutput } from "./render/manifest-output.js";

/**
 * `contract`: how the rendered contract differs from the one in the output folder, when there is
 * one and it changed. `warnings`: problems the rules make warnings, found now or, for specs not
 * checked again, when this machine's cache last checked them.
 */
export type RenderResult =
  | {
      readonly ok: true;
      readonly files: readonly OutputFile[];
      readonly flowCount: number;
      readonly contract?: DiffReport;
      readonly warnings?: readonly Issue[];
    }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      readonly contract?: DiffReport;
      readonly warnings?: readonly Issue[];
    };

/**
 * Runs the pipeline in memory: specs → model → OpenAPI → types → modules → formatted files.
 * Nothing is written; `writeOutput` does that. Work whose inputs did not change since the last run
 * is taken from the render cache, and the heavy stages (openapi-typescript, ts-morph) load only
 * when something has to be rendered.
 *
 * @example
 * const result = await renderProject({ specs: "specs", out: "generated", cwd: process.cwd() });
 */
export async function renderProject(options: GenerateOptions): Promise<RenderResult> {
  const times = options.times ?? createStageTimes();
  const sources = await times.measure("spec read", () => readSpecFiles(options.specs, options.cwd));
  const { known, ...rendered } = await renderFiles(options, sources, times);
  if (!rendered.ok) return rendered;
  const { contract, refused } = await times.measure("checks", () =>
    checkOutputContract(options, sources, rendered.files, known),
  );
  if (refused) return { ok: false, issues: refused, contract, warnings: rendered.warnings };
  return contract === undefined ? rendered : { ...rendered, contract };
}

/** A render, and what it knows of the contract it rendered (`RenderedContract`). */
type Rendered = RenderResult & { readonly known?: RenderedContract };

async function renderFiles(
  options: GenerateOptions,
  sources: SpecSources,
  times: StageTimes,
): Promise<Rendered> {
  const opened = await openRun(options, sources, times);
  const remembered = await recallFiles(opened);
  if (remembered) return { ok: true, ...remembered };
  const run = await trustRun(opened);
  try {
    const flows = run.keys.hashFlows();
    const checking = await untilAborted(checkFlows(run, flows), options.signal);
    if (!checking.ok) return checking;
    // Flow namespaces in index.ts must not take a name the runtime's exports have there.
    const model = times.measure("model", () =>
      buildModel(checking.takeSpecs(), { reservedNames: RUNTIME_EXPORTS }),
    );
    const plan = planRun(run, model, flows);
    // The values in the flows' schemas are checked here while the worker threads render, and the
    // examples on a worker thread meanwhile: nothing is written unless they pass.
    // A stopped run (Ctrl-C) does not wait for the rendering: nothing of it is on disk yet.
    const produced = await untilAborted(
      produceRun(run, plan, () => checking.checkValues()),
      options.signal,
    );
    const checked = await times.measure("checks", () => checking.settle());
    if (!checked.ok || !produced.ok) {
      const issues = [
        ...(checked.ok ? [] : checked.issues),
        ...(produced.ok ? [] : produced.issues),
      ];
      return { ok: false, issues, warnings: checked.warnings };
    }
    const { warnings } = checked;
    const flowCount = model.flows.length;
    const files = await finishRun(run, { flows, plan, files: produced.files, flowCount, warnings });
    const known = { document: contractDocument(plan), unchangedSince: unchangedFlows(run, flows) };
    return { ok: true, files, flowCount, warnings, known };
  } finally {
    await endThreads(run);
  }
}

/** The files to produce, each with its path among its inputs (it decides its prettier options). */
function planRun(run: Run, model: ProjectModel, flows: FlowKeys): Planned[] {
  const planned = run.times.measure("compile", () =>
    planFiles(model, { ...run.inputs, keys: run.keys, flowInputs: flows.inputs }, run.options),
  );
  return withFormatOptions(planned, run.keys);
}

/** Renders what the cache and (trusted) the output folder do not hold. */
async function produceRun(
  run: Run,
  plan: readonly Planned[],
  whenIdle: () => void,
): Promise<{ ok: true; files: OutputFile[] } | { ok: false; issues: Issue[] }> {
  const { cache } = run;
  // Trusted: files whose inputs match the manifest's record, and whose content still matches its hash, are kept as they are.
  const kept = await readKeptFiles(run.outDir, run.reusable, plan);
  const rendered = plan.filter((file) => cache.get(file.key) === undefined && !kept.has(file.path));
  if (rendered.length >= POOL_THRESHOLD) run.pool ??= startThreads(run.options, run.codeCache);
  const { formatter } = run.inputs;
  const paths = [...rendered.map((file) => file.path), MANIFEST_PATH];
  const pool = (await run.pool) ?? inThreadPool();
  const settled = await produceFiles(plan, {
    cache,
    kept,
    formatter,
    pool,
    times: run.times,
    prepare: () => formatter.prepare(paths),
    whenIdle,
  });
  const files: OutputFile[] = [];
  const issues: Issue[] = [];
  for (const outcome of settled) {
    if (outcome.status === "fulfilled") files.push(outcome.value);
    else if (outcome.reason instanceof ValidatorCompileError)
      issues.push(validatorIssue(outcome.reason, run.options.specs));
    else throw outcome.reason;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, files };
}

/** Adds the manifest to the files, records the run in the cache and saves it; the files, sorted. */
async function finishRun(
  run: Run,
  made: {
    readonly flows: FlowKeys;
    readonly plan: readonly Planned[];
    readonly files: readonly OutputFile[];
    readonly flowCount: number;
    readonly warnings: readonly Issue[];
  },
): Promise<OutputFile[]> {
  const { cache, keys } = run;
  const keyOf = new Map(made.plan.map((file) => [file.path, file.key]));
  const manifestFile = await run.inputs.formatter.formatJson(
    MANIFEST_PATH,
    buildManifest(
      keys.fingerprint,
      made.flows.inputs,
      made.files,
      new Map(made.plan.map((file) => [file.path, file.inputs])),
      (file) => cache.hashOf(keyOf.get(file.path) ?? ""),
    ),
  );
  cache.set(keys.manifest, manifestFile.content);
  // Only a contract this machine rendered (or cached): one kept on the manifest's word is no evidence.
  const contract = made.files.find((file) => file.path === "openapi.json");
  const contractKey = keyOf.get("openapi.json") ?? "";
  if (contract !== undefined && cache.get(contractKey) === contract.content)
    contractProvenance(cache, keys).record(
      contract.content,
      made.flows.inputs,
      cache.hashOf(contractKey),
    );
  rememberRun(cache, keys.run, {
    flowCount: made.flowCount,
    files: [
      ...made.plan.map((file) => [file.path, file.key] as const),
      [MANIFEST_PATH, keys.manifest],
    ],
    checked: made.flows.checks,
    warnings: made.warnings,
  });
  await cache.save();
  return [...made.files, manifestFile].sort((a, b) => compareText(a.path, b.path));
}

/** The value `openapi.json` prints: the contract the run rendered. */
function contractDocument(plan: readonly Planned[]): unknown {
  const render = plan.find((file) => file.path === "openapi.json")?.render;
  return typeof render === "object" && "json" in render ? render.json : undefined;
}

/** The flows (by id) whose inputs are the same as when this machine rendered an `openapi.json` text. */
function unchangedFlows(run: Run, flows: FlowKeys): (previous: string) => ReadonlySet<string> {
  const ids = new Map(run.sources.flows.map((flow) => [flow.relPath, `@${flow.org}/${flow.name}`]));
  return (previous) => {
    const relPaths = contractProvenance(run.cache, run.keys).unchangedSince(previous, flows.inputs);
    return new Set([...relPaths].flatMap((relPath) => ids.get(relPath) ?? []));
  };
}

function validatorIssue(error: ValidatorCompileError, specs: string): Issue {
  const file = path.join(specs, error.flow.specPath).split(path.sep).join("/");
  const message = `the ${error.schema} schema cannot be compiled into a validator: ${error.message}; change the schema, or generate without --validators`;
  return { code: "validator-unsupported", file, pointer: `/${error.schema}`, message };
}
