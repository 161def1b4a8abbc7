import type * as prettier from "prettier";
import { formatBatch } from "../format/format-batch.js";
import { renderTypes } from "../types/flow-types.js";

/** One flow's types to render: the file's first line, and its OpenAPI document as JSON text. */
export interface TypesItem {
  readonly header: string;
  readonly document: string;
}

/** A batch of one stage's work, for a worker thread (or this thread, when no pool runs). */
export type StageTask =
  | { readonly stage: "types"; readonly items: readonly TypesItem[] }
  | { readonly stage: "format"; readonly contents: readonly string[]; readonly options: prettier.Options };

/**
 * Runs one task: the types stage (openapi-typescript, giving unformatted text) or the format stage
 * (prettier). Documents travel as JSON text: parsing it here costs less than cloning objects.
 *
 * @example
 * const [text] = await runStageTask({ stage: "types", items: [{ header, document: JSON.stringify(doc) }] });
 */
export default async function runStageTask(task: StageTask): Promise<string[]> {
  if (task.stage === "types") return task.items.map((item) => `${item.header}\n\n${renderTypes(JSON.parse(item.document) as Record<string, unknown>)}`);
  return formatBatch(task.contents, task.options);
}
