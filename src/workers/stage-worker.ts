import type * as Prettier from "prettier";
import type { EmitOptions } from "../emit/flow-module.js";
import { checkHandPrinted } from "../format/check-printers.js";
import type { CodeLayout } from "../format/code-layout.js";
import { printTypes } from "../format/print-types.js";
import type { PrettierRef } from "../format/project-prettier.js";
import type { ExamplesTask } from "../spec/check-examples.js";
import type { SchemaFinding } from "../spec/schema-refs.js";
import { flowTypeNodes } from "../types/flow-types.js";
import { openapiTypescript, ts } from "../types/openapi-typescript-entry.js";

/** One flow's types to render: the file's first line, and its OpenAPI document as JSON text. */
export interface TypesItem {
  readonly header: string;
  readonly document: string;
}

/** A flow's types file: in its final layout, or as openapi-typescript printed it, for prettier to format. */
export interface TypesText {
  readonly text: string;
  readonly formatted: boolean;
}

/**
 * The types stage for a batch of flows whose files share prettier options; `layout` when the
 * formatting prettier and its options allow printing in its layout directly.
 */
export interface TypesTask {
  readonly stage: "types";
  readonly items: readonly TypesItem[];
  readonly layout: CodeLayout | undefined;
  /** The files' options and prettier: for checking printed files (`FLOWGEN_CHECK_PRINTERS`). */
  readonly options: Prettier.Options;
  readonly prettier: PrettierRef;
}

/** The format stage for a batch of files that share prettier options, and the prettier to format with. */
export interface FormatTask {
  readonly stage: "format";
  readonly contents: readonly string[];
  readonly options: Prettier.Options;
  readonly prettier: PrettierRef;
}

/** One flow's module to emit: its model as JSON text, and what the project compiles into clients. */
export interface ModuleItem {
  readonly flow: string;
  readonly emit: EmitOptions;
}

/** The module stage for a batch of flows whose files share prettier options: emit (ts-morph), then format. */
export interface ModuleTask {
  readonly stage: "module";
  readonly items: readonly ModuleItem[];
  readonly options: Prettier.Options;
  readonly prettier: PrettierRef;
}

/**
 * Loads the module stage (ts-morph) ahead of its first task: for a run that renders a few modules
 * on a thread, which would otherwise wait for the load when their task comes. A failed load
 * surfaces when a module task imports it.
 */
export interface LoadModulesTask {
  readonly stage: "load modules";
}

/** A batch of one stage's work, for a worker thread (or this thread, when no pool runs). */
export type StageTask = TypesTask | ModuleTask | FormatTask | ExamplesTask | LoadModulesTask;

/**
 * Runs one task: the types stage (openapi-typescript's declarations, printed in prettier's layout
 * by `printTypes` where it knows the shapes and options, else as unformatted text), the module
 * stage (flow modules emitted, then formatted) or the format stage (flow modules in prettier's
 * layout, the rest by prettier), or the example checks a run deferred (`runExamplesTask`).
 * Documents and flow models travel as JSON text: parsing it here costs less than cloning objects.
 *
 * @example
 * const [types] = await runStageTask({ stage: "types", items: [{ header, document: JSON.stringify(doc) }], layout });
 */
export default function runStageTask(
  task: StageTask,
): Promise<TypesText[] | string[] | SchemaFinding[]> {
  const run = previous.then(() => runTask(task));
  previous = run.catch(() => undefined);
  return run;
}

/**
 * The task before the last one handed in. A thread holds many tasks at once (the run hands over
 * every types batch together), and tasks that took turns at each `await` would all hold their
 * half-built declarations at the same time: they run one after another, in the order given.
 */
let previous: Promise<unknown> = Promise.resolve();

async function runTask(task: StageTask): Promise<TypesText[] | string[] | SchemaFinding[]> {
  if (task.stage === "load modules") {
    await import("../emit/emit-modules.js").catch(() => undefined);
    return [];
  }
  if (task.stage === "examples")
    return (await import("../spec/check-examples.js")).runExamplesTask(task);
  if (task.stage === "types") {
    const rendered: TypesText[] = [];
    for (const item of task.items) rendered.push(await renderTypesFile(item, task));
    return rendered;
  }
  if (task.stage === "module") return (await import("../emit/emit-modules.js")).emitModules(task);
  const { formatModules } = await import("../format/format-modules.js");
  return formatModules(task.contents, task.options, ts, task.prettier);
}

async function renderTypesFile(item: TypesItem, task: TypesTask): Promise<TypesText> {
  const nodes = flowTypeNodes(item.document);
  const printed =
    task.layout === undefined ? undefined : printTypes(item.header, nodes, task.layout);
  const text = () => `${item.header}\n\n${openapiTypescript.astToString(nodes)}`;
  if (printed === undefined) return { text: text(), formatted: false };
  await checkHandPrinted(item.header, printed, text, task.options, task.prettier);
  return { text: printed, formatted: true };
}
