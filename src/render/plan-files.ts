import { compileOpenApi } from "../compile/openapi-document.js";
import { compareText } from "../issues.js";
import { banner } from "../emit/banner.js";
import { PACKAGE_MARKER, PACKAGE_MARKER_PATH } from "../emit/package-marker.js";
import { RUNTIME_DIR } from "../emit/runtime-exports.js";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import type { Planned } from "../produce-files.js";
import type { RuntimeTemplate } from "../runtime-templates.js";
import type { RenderSettings, RunKeys } from "./run-keys.js";

/** What the plan is made from besides the model: the run's keys and templates. */
export interface PlanInputs {
  readonly keys: RunKeys;
  /** Per flow spec, the hash of its text and the shared files it reaches (`FlowKeys.inputs`). */
  readonly flowInputs: Readonly<Record<string, string>>;
  readonly runtime: readonly RuntimeTemplate[];
  readonly validation: string;
}

/** A file to produce, before its key (which follows its format options: `withFormatOptions`). */
export type PlannedFile = Omit<Planned, "key">;

/** What the steps of planning one run share. */
interface Planning {
  readonly model: ProjectModel;
  readonly run: PlanInputs;
  readonly compileOptions: { readonly baseUrl: string | undefined; readonly validators: boolean };
  /** The emit stages, loaded by the first file that needs them. */
  readonly stages: () => ReturnType<typeof lazyStages>;
}

/**
 * Every file of the output folder but the manifest: its path, what it is rendered from, and how
 * to render it. Nothing is rendered here; the heavy stages load only when a file must be.
 *
 * @example
 * const plan = planFiles(model, { keys, runtime, validation }, { validators: true });
 */
export function planFiles(
  model: ProjectModel,
  run: PlanInputs,
  settings: RenderSettings,
): PlannedFile[] {
  const validators = settings.validators === true;
  let loaded: ReturnType<typeof lazyStages> | undefined;
  const planning: Planning = {
    model,
    run,
    compileOptions: { baseUrl: settings.baseUrl, validators },
    stages: () => (loaded ??= lazyStages()),
  };
  const flowPlans = model.flows.map((flow) => planFlowFiles(planning, flow));
  const plan = [
    ...planProjectFiles(planning, flowPlans, settings.moduleMarker === true),
    ...flowPlans.flatMap((flowPlan) => flowPlan.files),
  ];
  if (validators) plan.push(planValidationTemplate(planning));
  return plan;
}

/**
 * The files made from the whole project: the OpenAPI document, the runtime, the index. The
 * document is made from every flow's model and the components it reaches, in flow order, under
 * the settings every key holds: its inputs are theirs, not its own text made again and hashed.
 */
function planProjectFiles(
  planning: Planning,
  flowPlans: readonly FlowPlan[],
  moduleMarker: boolean,
): PlannedFile[] {
  const { model, run } = planning;
  const { keys } = run;
  const document = compileOpenApi(model, model.flows, planning.compileOptions);
  const plan: PlannedFile[] = [
    {
      path: "openapi.json",
      inputs: keys.fileInputs("openapi", ...flowPlans.flatMap((flowPlan) => flowPlan.document)),
      render: { json: document },
    },
    ...run.runtime.map(({ name, text }): PlannedFile => {
      const source = `templates/${RUNTIME_DIR}/${name}`;
      return {
        path: `${RUNTIME_DIR}/${name}`,
        inputs: keys.fileInputs(source),
        render: { formattedByDefault: `${banner(`${source} in flowgen`)}\n${text}` },
      };
    }),
    {
      path: "index.ts",
      inputs: keys.fileInputs(
        "index",
        JSON.stringify(model.flows.map((flow) => [flow.indexNamespace, flow.modulePath])),
      ),
      render: async () => (await planning.stages()).emitIndexModule(model),
    },
  ];
  // Generated modules are ES modules: saying so lets them compile in a CommonJS package whose
  // TypeScript has verbatimModuleSyntax (npm init -y with tsc --init), where nothing else would.
  if (moduleMarker)
    plan.push({
      path: PACKAGE_MARKER_PATH,
      inputs: keys.fileInputs(PACKAGE_MARKER_PATH),
      render: { json: PACKAGE_MARKER },
    });
  return plan;
}

/** A flow's files, and what its part of the OpenAPI document is made from. */
interface FlowPlan {
  readonly files: PlannedFile[];
  /** Its model (the module's inputs) and what its own document is made from (the types'). */
  readonly document: readonly string[];
}

/**
 * A flow's module and types, and its validators when asked for. The types and validators are made
 * from the flow's own OpenAPI document: its model and the components it reaches. That document is
 * known by what makes it, without making it (only a file to render needs it): the flow's model,
 * where each component it reaches lies in the specs, and the texts of those files (the flow's own
 * in `flowInputs`, shared ones by their hashes). Each component is its schema there, with each
 * `$ref` naming a component the flow reaches as well.
 */
function planFlowFiles(planning: Planning, flow: FlowModel): FlowPlan {
  const { model, compileOptions } = planning;
  const { keys } = planning.run;
  const flowText = JSON.stringify(flow);
  const documentInputs = [flow.specPath, flowText, ...componentInputs(planning, flow)];
  const flowDocument = () =>
    JSON.stringify(compileOpenApi(model, [flow], { ...compileOptions, compact: true }));
  const module: PlannedFile = {
    path: `${flow.modulePath}.ts`,
    inputs: keys.fileInputs("module", flowText),
    render: { module: { flow: flowText, emit: compileOptions } },
  };
  const types: PlannedFile = {
    path: `${flow.modulePath}.types.ts`,
    inputs: keys.fileInputs("types", ...documentInputs),
    render: {
      types: () => ({ header: banner(`the spec ${flow.specPath}`), document: flowDocument() }),
    },
  };
  const files = [module, types];
  if (compileOptions.validators)
    files.push({
      path: `${flow.modulePath}.validators.ts`,
      inputs: keys.fileInputs("validators", ...documentInputs),
      render: async () =>
        (await import("../validators/flow-validators.js")).emitFlowValidators(model, flow),
    });
  return { files, document: [module.inputs, types.inputs] };
}

/**
 * Where each component a flow reaches lies (`file#pointer`), the hash of the flow's spec and the
 * shared files it reaches (`flowInputs`), and the hash of each shared file a component lies in.
 */
function componentInputs(planning: Planning, flow: FlowModel): string[] {
  const { model } = planning;
  const { keys, flowInputs } = planning.run;
  const flowInput = flowInputs[flow.specPath];
  if (flowInput === undefined) throw new Error(`bug: no input hash for ${flow.specPath}`);
  const sources = flow.components.map((name) => model.componentSources.get(name) ?? "");
  const files = new Set(sources.map((source) => source.slice(0, source.indexOf("#"))));
  files.delete(flow.specPath);
  const shared = [...files].sort(compareText).flatMap((file) => [file, keys.sharedFile(file)]);
  return [flowInput, JSON.stringify(sources), ...shared];
}

/** The template the validators import, copied as it is. */
function planValidationTemplate(planning: Planning): PlannedFile {
  const render = () =>
    Promise.resolve(`${banner("templates/validation.ts in flowgen")}\n${planning.run.validation}`);
  return {
    path: "validation.ts",
    inputs: planning.run.keys.fileInputs("validation"),
    render,
  };
}

/**
 * A file's path joins what it is rendered from: a config's `overrides` can format one file of a
 * folder differently from the next. The config sources themselves (the config file and the
 * `.editorconfig` files that apply to the output folder, by text) are in every key already, through
 * the formatter's fingerprint; the output folder's own subfolders are flowgen's and hold none. So
 * a file's options need resolving only when it is rendered: resolving them for every file cost a
 * prettier `resolveConfig` per file.
 *
 * @example
 * const plan = withFormatOptions(planFiles(model, run, settings), keys);
 */
export function withFormatOptions(plan: readonly PlannedFile[], keys: RunKeys): Planned[] {
  return plan.map((file) => {
    const inputs = keys.joinFormatOptions(file.inputs, file.path);
    return { ...file, inputs, key: keys.fileKey(inputs) };
  });
}

/** ts-morph takes a while to load: only when a file must be emitted. */
async function lazyStages() {
  const { emitIndexModule } = await import("../emit/index-module.js");
  return { emitIndexModule };
}
