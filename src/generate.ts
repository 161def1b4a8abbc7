import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  codeFingerprint,
  hashParts,
  openRenderCache,
  type RenderCache,
} from "./cache/render-cache.js";
import { compileOpenApi } from "./compile/openapi-document.js";
import { banner } from "./emit/banner.js";
import { RUNTIME_DIR, RUNTIME_EXPORTS } from "./emit/runtime-exports.js";
import { checkOutputContract } from "./diff/output-contract.js";
import type { DiffReport } from "./diff/contract-diff.js";
import { createFormatter, type Formatter } from "./format/format-files.js";
import { produceFiles, type Planned } from "./produce-files.js";
import { inThreadPool, startWorkerPool } from "./workers/stage-pool.js";
import { compareText, type Issue } from "./issues.js";
import { buildModel, type ProjectModel } from "./model/build-model.js";
import type { OutputFile } from "./output-file.js";
import { ValidatorCompileError } from "./validators/validator-compile-error.js";
import { readSpecFiles, type SpecSources } from "./spec/read-spec-files.js";
import {
  buildManifest,
  hashContent,
  hashFlowInputs,
  MANIFEST_PATH,
  readManifest,
  type OutputManifest,
} from "./manifest/output-manifest.js";
import { listOutputFiles } from "./write/write-output.js";
import { readTextFiles } from "./read-text-files.js";
import { createStageTimes, type StageTimes } from "./stage-times.js";
import { readRuntimeTemplates, type RuntimeTemplate } from "./runtime-templates.js";
import { projectBoundary } from "./project-boundary.js";

export interface GenerateOptions {
  /** Folder of flow specs, relative to `cwd`. */
  readonly specs: string;
  /** Output folder, relative to `cwd`. */
  readonly out: string;
  readonly cwd: string;
  /** Default base URL baked into the clients and the OpenAPI `servers` entry. */
  readonly baseUrl?: string | undefined;
  /** Also write `<flow>.validators.ts` per flow and have the clients check input and output. */
  readonly validators?: boolean | undefined;
  /** Folder for the render cache, relative to `cwd`; undefined for none. */
  readonly cacheDir?: string | undefined;
  /** Refuse (render nothing, `breaking-change` issues) when the new contract breaks callers of a flow. */
  readonly failOnBreaking?: boolean | undefined;
  /**
   * Take the output folder's manifest at its word: files whose content hash it records as current
   * are kept without rendering, and flows it records as checked skip their own checks. The manifest
   * is committed, so whoever made the commit wrote it: only for output from people you trust.
   */
  readonly trustManifest?: boolean | undefined;
  /** Where to add the time each stage takes (`--verbose`). */
  readonly times?: StageTimes | undefined;
}

/** `contract`: how the rendered contract differs from the one in the output folder, when there is one and it changed. */
export type RenderResult =
  | {
      readonly ok: true;
      readonly files: readonly OutputFile[];
      readonly flowCount: number;
      readonly contract?: DiffReport;
    }
  | { readonly ok: false; readonly issues: readonly Issue[]; readonly contract?: DiffReport };

/** Below this many files to render, starting worker threads costs more than it saves. */
const POOL_THRESHOLD = 64;

const VALIDATION_TEMPLATE = new URL("../templates/validation.ts", import.meta.url);
const PACKAGE_JSON = new URL("../package.json", import.meta.url);

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
  const rendered = await renderFiles(options, sources, times);
  if (!rendered.ok) return rendered;
  const { contract, refused } = await times.measure("checks", () =>
    checkOutputContract(options, sources, rendered.files),
  );
  if (refused) return { ok: false, issues: refused, contract };
  return contract === undefined ? rendered : { ...rendered, contract };
}

/** What every file of a run depends on besides its own inputs. */
interface RunInputs {
  readonly runtime: readonly RuntimeTemplate[];
  readonly validation: string;
  readonly formatter: Formatter;
  /** flowgen's version, templates, prettier's version and options, and the options: the manifest's fingerprint. */
  readonly fingerprint: string;
  /** `fingerprint` and a hash of flowgen's code: output cached by one build is never served by another. */
  readonly salt: string;
}

async function readRunInputs(options: GenerateOptions, outDir: string): Promise<RunInputs> {
  const [runtime, validation, code, version, formatter] = await Promise.all([
    readRuntimeTemplates(),
    readFile(VALIDATION_TEMPLATE, "utf8"),
    codeFingerprint(),
    readFile(PACKAGE_JSON, "utf8").then((text) =>
      String((JSON.parse(text) as { version?: unknown }).version),
    ),
    createFormatter(outDir),
  ]);
  const fingerprint = hashParts(
    version,
    ...runtime.flatMap((file) => [file.name, file.text]),
    validation,
    formatter.fingerprint,
    options.baseUrl ?? "",
    String(options.validators === true),
  );
  return { runtime, validation, formatter, fingerprint, salt: hashParts(code, fingerprint) };
}

/**
 * The output folder's files, when its manifest shows them current without rendering anything: the
 * same flowgen version, templates, prettier options and generate options, the same spec and shared
 * files, and every file's content hash as recorded (so a hand edit is caught). Undefined when any
 * of that differs (render to find out what), or when the specs cannot be read cleanly.
 *
 * This takes the manifest's word, and the manifest is whatever the last commit says: a forged one
 * (a changed file with its new hash recorded) passes. Only `--trust-manifest` asks for it.
 *
 * @example
 * const current = await readCurrentOutput({ specs: "specs", out: "generated", cwd: process.cwd() });
 */
export async function readCurrentOutput(
  options: GenerateOptions,
): Promise<{ files: OutputFile[]; flowCount: number } | undefined> {
  const outDir = path.resolve(options.cwd, options.out);
  const manifest = await readManifest(outDir);
  if (manifest === undefined) return undefined;
  const times = options.times ?? createStageTimes();
  const [sources, inputs] = await Promise.all([
    times.measure("spec read", () => readSpecFiles(options.specs, options.cwd)),
    readRunInputs(options, outDir),
  ]);
  if (sources.issues.length > 0 || manifest.fingerprint !== inputs.fingerprint) return undefined;
  if (
    JSON.stringify(hashFlowInputs(inputs.fingerprint, sources)) !== JSON.stringify(manifest.flows)
  )
    return undefined;
  return times.measure("manifest", () => compareWithManifest(outDir, manifest));
}

async function compareWithManifest(
  outDir: string,
  manifest: OutputManifest,
): Promise<{ files: OutputFile[]; flowCount: number } | undefined> {
  const present = await listOutputFiles(outDir);
  const recorded = Object.keys(manifest.files);
  if (present.length !== recorded.length + 1 || !present.includes(MANIFEST_PATH)) return undefined;
  const contents = readTextFiles(present.map((file) => path.join(outDir, file)));
  const files = present.map((file, i) => ({ path: file, content: contents[i] ?? "" }));
  for (const file of files) {
    if (
      file.path !== MANIFEST_PATH &&
      manifest.files[file.path]?.output !== hashContent(file.content)
    )
      return undefined;
  }
  return { files, flowCount: Object.keys(manifest.flows).length };
}

async function renderFiles(
  options: GenerateOptions,
  sources: SpecSources,
  times: StageTimes,
): Promise<RenderResult> {
  const cache = await openRenderCache(
    options.cacheDir === undefined ? undefined : path.resolve(options.cwd, options.cacheDir),
    projectBoundary(options.cwd, options.cwd),
  );
  const outDir = path.resolve(options.cwd, options.out);
  const inputs = await readRunInputs(options, outDir);
  const { formatter, salt } = inputs;
  // Everything a run depends on: when none of it changed, the previous run's files are the answer.
  const runKey = `run:${hashParts(salt, ...sources.flows.flatMap((s) => [s.relPath, s.text]), "|", ...sources.shared.flatMap((s) => [s.relPath, s.text]))}`;
  const remembered = sources.issues.length === 0 ? recall(cache, runKey) : undefined;
  if (remembered) {
    await cache.save();
    return { ok: true, ...remembered };
  }
  // The committed manifest is no evidence of what generated/ holds: only when asked to trust it.
  const manifest =
    options.trustManifest === true && options.cacheDir !== undefined
      ? await readManifest(outDir)
      : undefined;
  const reusable = manifest?.fingerprint === inputs.fingerprint ? manifest : undefined;
  // Worker threads are slow to start: each loads openapi-typescript and TypeScript (bench/NOTES.md).
  // With nothing cached, every file (two per flow) is new: start them now, while this thread
  // checks the specs.
  let pool =
    cache.empty && reusable === undefined && 2 * sources.flows.length >= POOL_THRESHOLD
      ? startWorkerPool()
      : undefined;
  try {
    // The checks load Ajv, YAML and JSONC parsers: not needed when the run key hit.
    const { checkSpecs } = await import("./spec/load-specs.js");
    // A flow whose inputs this machine's cache saw pass the checks (or, trusted, the manifest records) was checked by this flowgen.
    const flowInputs = hashFlowInputs(inputs.fingerprint, sources);
    const checkKeys = Object.keys(flowInputs).map((relPath) =>
      hashParts(salt, "checked", flowInputs[relPath] ?? ""),
    );
    const trusted = new Set(
      Object.keys(flowInputs).filter(
        (relPath, i) =>
          cache.get(checkKeys[i] ?? "") !== undefined ||
          (reusable !== undefined && flowInputs[relPath] === reusable.flows[relPath]),
      ),
    );
    const checked = times.measure("checks", () => checkSpecs(sources, { trusted }));
    if (!checked.ok) return checked;
    for (const key of checkKeys) cache.set(key, "");
    // Flow namespaces in index.ts must not take a name the runtime's exports have there.
    const model = times.measure("model", () =>
      buildModel(checked.specs, { reservedNames: RUNTIME_EXPORTS }),
    );
    const plan = times.measure("compile", () => planFiles(model, inputs, options));
    // Trusted: files whose inputs match the manifest's record, and whose content still matches its hash, are kept as they are.
    const kept = await readKeptFiles(outDir, reusable, plan);
    if (
      plan.filter((file) => cache.get(file.key) === undefined && !kept.has(file.path)).length >=
      POOL_THRESHOLD
    )
      pool ??= startWorkerPool();
    const settled = await produceFiles(plan, {
      cache,
      kept,
      formatter,
      pool: (await pool) ?? inThreadPool(),
      times,
    });
    const files: OutputFile[] = [];
    const issues: Issue[] = [];
    for (const outcome of settled) {
      if (outcome.status === "fulfilled") files.push(outcome.value);
      else if (outcome.reason instanceof ValidatorCompileError)
        issues.push(validatorIssue(outcome.reason, options.specs));
      else throw outcome.reason;
    }
    if (issues.length > 0) return { ok: false, issues };
    const manifestFile = await formatter.formatJson(
      MANIFEST_PATH,
      buildManifest(
        inputs.fingerprint,
        flowInputs,
        files,
        new Map(plan.map((file) => [file.path, file.inputs])),
      ),
    );
    const manifestKey = hashParts(runKey, MANIFEST_PATH);
    cache.set(manifestKey, manifestFile.content);
    files.push(manifestFile);
    cache.set(
      runKey,
      JSON.stringify({
        flowCount: model.flows.length,
        files: [...plan.map((file) => [file.path, file.key]), [MANIFEST_PATH, manifestKey]],
        checked: checkKeys,
      }),
    );
    await cache.save();
    return {
      ok: true,
      files: files.sort((a, b) => compareText(a.path, b.path)),
      flowCount: model.flows.length,
    };
  } finally {
    await (await pool)?.close();
  }
}

async function readKeptFiles(
  outDir: string,
  manifest: OutputManifest | undefined,
  plan: readonly Planned[],
): Promise<Map<string, string>> {
  if (manifest === undefined) return new Map();
  // Only files the folder really holds: nothing behind a link in it is read.
  const present = new Set(await listOutputFiles(outDir));
  const candidates = plan.filter(
    (file) => present.has(file.path) && manifest.files[file.path]?.inputs === file.inputs,
  );
  const contents = readTextFiles(
    candidates.map((file) => path.join(outDir, ...file.path.split("/"))),
    () => undefined,
  );
  const kept = new Map<string, string>();
  candidates.forEach((file, i) => {
    const content = contents[i];
    if (content !== undefined && hashContent(content) === manifest.files[file.path]?.output)
      kept.set(file.path, content);
  });
  return kept;
}

function planFiles(model: ProjectModel, run: RunInputs, options: GenerateOptions): Planned[] {
  const planned = (file: Omit<Planned, "key">): Planned => ({
    ...file,
    key: hashParts(run.salt, file.inputs),
  });
  const salt = run.fingerprint;
  const templates = run;
  const validators = options.validators === true;
  const compileOptions = { baseUrl: options.baseUrl, validators };
  let loaded: ReturnType<typeof lazyStages> | undefined;
  const stages = () => (loaded ??= lazyStages());
  const document = compileOpenApi(model, model.flows, compileOptions);
  const plan: Planned[] = [
    planned({
      path: "openapi.json",
      inputs: hashParts(salt, "openapi", JSON.stringify(document)),
      render: { json: document },
    }),
    ...templates.runtime.map(({ name, text }): Planned => {
      const source = `templates/${RUNTIME_DIR}/${name}`;
      return planned({
        path: `${RUNTIME_DIR}/${name}`,
        inputs: hashParts(salt, source),
        render: () => Promise.resolve(`${banner(`${source} in flowgen`)}\n${text}`),
      });
    }),
    planned({
      path: "index.ts",
      inputs: hashParts(
        salt,
        "index",
        JSON.stringify(model.flows.map((flow) => [flow.indexNamespace, flow.modulePath])),
      ),
      render: async () => (await stages()).emitIndexModule(model),
    }),
  ];
  for (const flow of model.flows) {
    const flowDocumentText = JSON.stringify(
      compileOpenApi(model, [flow], { ...compileOptions, compact: true }),
    );
    plan.push(
      planned({
        path: `${flow.modulePath}.ts`,
        inputs: hashParts(salt, "module", JSON.stringify(flow)),
        render: async () => (await stages()).emitFlowModule(flow, compileOptions),
      }),
      planned({
        path: `${flow.modulePath}.types.ts`,
        inputs: hashParts(salt, "types", flow.specPath, flowDocumentText),
        render: {
          types: { header: banner(`the spec ${flow.specPath}`), document: flowDocumentText },
        },
      }),
    );
    if (validators) {
      const inputs = hashParts(salt, "validators", flow.specPath, flowDocumentText);
      plan.push(
        planned({
          path: `${flow.modulePath}.validators.ts`,
          inputs,
          render: async () =>
            (await import("./validators/flow-validators.js")).emitFlowValidators(model, flow),
        }),
      );
    }
  }
  if (validators) {
    const render = () =>
      Promise.resolve(`${banner("templates/validation.ts in flowgen")}\n${templates.validation}`);
    plan.push(planned({ path: "validation.ts", inputs: hashParts(salt, "validation"), render }));
  }
  return plan;
}

function validatorIssue(error: ValidatorCompileError, specs: string): Issue {
  const file = path.join(specs, error.flow.specPath).split(path.sep).join("/");
  const message = `the ${error.schema} schema cannot be compiled into a validator: ${error.message}; change the schema, or generate without --validators`;
  return { code: "validator-unsupported", file, pointer: `/${error.schema}`, message };
}

/** ts-morph takes a while to load: only when a file must be emitted. */
async function lazyStages() {
  const [{ emitFlowModule }, { emitIndexModule }] = await Promise.all([
    import("./emit/flow-module.js"),
    import("./emit/index-module.js"),
  ]);
  return { emitFlowModule, emitIndexModule };
}

function recall(
  cache: RenderCache,
  runKey: string,
): { files: OutputFile[]; flowCount: number } | undefined {
  const entry = cache.get(runKey);
  if (entry === undefined) return undefined;
  const {
    flowCount,
    files,
    checked = [],
  } = JSON.parse(entry) as {
    flowCount: number;
    files: [string, string][];
    checked?: string[];
  };
  // Kept for the next run that changes one spec: the others need not be checked again.
  for (const key of checked) cache.get(key);
  const out: OutputFile[] = [];
  for (const [filePath, key] of files) {
    const content = cache.get(key);
    if (content === undefined) return undefined;
    out.push({ path: filePath, content });
  }
  return { files: out.sort((a, b) => compareText(a.path, b.path)), flowCount };
}
