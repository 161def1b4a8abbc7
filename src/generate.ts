import { readFile } from "node:fs/promises";
import { Project } from "ts-morph";
import { compileOpenApi } from "./compile/openapi-document.js";
import { banner } from "./emit/banner.js";
import { emitFlowModule } from "./emit/flow-module.js";
import { emitIndexModule } from "./emit/index-module.js";
import { createFormatter } from "./format/format-files.js";
import { compareText, type Issue } from "./issues.js";
import { buildModel } from "./model/build-model.js";
import type { OutputFile } from "./output-file.js";
import { loadSpecs } from "./spec/load-specs.js";
import { renderTypes } from "./types/flow-types.js";

export interface GenerateOptions {
  /** Folder of flow specs, relative to `cwd`. */
  readonly specs: string;
  /** Output folder, relative to `cwd`. */
  readonly out: string;
  readonly cwd: string;
  /** Default base URL baked into the clients and the OpenAPI `servers` entry. */
  readonly baseUrl?: string | undefined;
}

export type RenderResult =
  | { readonly ok: true; readonly files: readonly OutputFile[]; readonly flowCount: number }
  | { readonly ok: false; readonly issues: readonly Issue[] };

const RUNTIME_TEMPLATE = new URL("../templates/runtime.ts", import.meta.url);

/**
 * Runs the pipeline in memory: specs → model → OpenAPI → types → modules → formatted files.
 * Nothing is written; `writeOutput` does that.
 *
 * @example
 * const result = await renderProject({ specs: "specs", out: "generated", cwd: process.cwd() });
 */
export async function renderProject(options: GenerateOptions): Promise<RenderResult> {
  const loaded = await loadSpecs(options.specs, options.cwd);
  if (!loaded.ok) return loaded;
  const model = buildModel(loaded.specs);
  const compileOptions = { baseUrl: options.baseUrl };
  const project = new Project({ useInMemoryFileSystem: true });
  const raw: OutputFile[] = [
    { path: "openapi.json", content: JSON.stringify(compileOpenApi(model, model.flows, compileOptions), null, 2) },
    { path: "runtime.ts", content: `${banner("templates/runtime.ts in flowgen")}\n${await readFile(RUNTIME_TEMPLATE, "utf8")}` },
    { path: "index.ts", content: emitIndexModule(project, model) },
    ...model.flows.flatMap((flow) => [
      { path: `${flow.modulePath}.ts`, content: emitFlowModule(project, flow, compileOptions) },
      {
        path: `${flow.modulePath}.types.ts`,
        content: `${banner(`the spec ${flow.specPath}`)}\n\n${renderTypes(compileOpenApi(model, [flow], compileOptions))}`,
      },
    ]),
  ];
  const formatter = await createFormatter(`${options.cwd}/${options.out}`);
  const files = await Promise.all(raw.map((file) => formatter.format(file)));
  return { ok: true, files: files.sort((a, b) => compareText(a.path, b.path)), flowCount: model.flows.length };
}
