import type * as TS from "typescript";
import { formatModules } from "../format/format-modules.js";
import type { FlowModel } from "../model/build-model.js";
import type { ModuleTask } from "../workers/stage-worker.js";
import { emitFlowModule } from "./flow-module.js";
import { tsMorph } from "./ts-morph-entry.js";

/**
 * The module stage: each flow's module emitted by ts-morph, then formatted, its text parsed by
 * ts-morph's own TypeScript (loaded for the emit anyway). Runs on a worker thread, or on this one.
 *
 * @example
 * const [text] = await emitModules({ stage: "module", items: [{ flow: JSON.stringify(flow), emit }], options, prettier });
 */
export function emitModules(task: ModuleTask): Promise<string[]> {
  const emitted = task.items.map((item) =>
    emitFlowModule(JSON.parse(item.flow) as FlowModel, item.emit),
  );
  return formatModules(emitted, task.options, tsMorph.ts as unknown as typeof TS, task.prettier);
}
