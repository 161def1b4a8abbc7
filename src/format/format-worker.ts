import * as prettier from "prettier";
import { renderTypes } from "../types/flow-types.js";

/** A file to format, or one flow's types to render with openapi-typescript and then format. */
export type WorkerTask =
  | { readonly kind: "format"; readonly content: string; readonly options: prettier.Options }
  | { readonly kind: "types"; readonly header: string; readonly document: Record<string, unknown>; readonly options: prettier.Options };

/**
 * Runs on a worker thread. Types are rendered here rather than on the main thread so that both
 * cores share openapi-typescript's work as well as prettier's. Both load when the thread starts,
 * which the pool does while the main thread is still checking specs.
 */
export default async function runTask(task: WorkerTask): Promise<string> {
  if (task.kind === "format") return prettier.format(task.content, task.options);
  return prettier.format(`${task.header}\n\n${renderTypes(task.document)}`, task.options);
}
