import { isPlainObject, joinPointer } from "../json-pointer.js";
import type { Side } from "./change-rules.js";
import { compareCombinators, unionWrapping } from "./combinator-diff.js";
import type { DiffContext, Schema, SchemaChange } from "./diff-context.js";
import {
  compareAnnotations,
  compareBounds,
  compareEnums,
  comparePatterns,
  compareTypes,
  compareUnclassified,
} from "./keyword-diff.js";
import { compareArrays, compareObjects } from "./structure-diff.js";
import { resolveSchema } from "./resolve-schema.js";

/**
 * Compares two schemas for the callers of one side of a flow, following `$ref`s in each document.
 * Every pair of schema nodes is compared once, so recursive schemas end, and a shared schema's
 * change is reported once per side, at the shortest pointer that reaches it.
 *
 * @example
 * diffSchemas({ side: "input", base: oldDoc, head: newDoc }, oldInput, newInput, "/input");
 * // [{ pointer: "/input/required", rule: "required-added", message: "\"lang\" is now required" }]
 */
export function diffSchemas(
  documents: { side: Side; base: unknown; head: unknown },
  base: unknown,
  head: unknown,
  pointer: string,
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  // Breadth first: a schema reached by several paths is reported at the shortest.
  const queue: [unknown, unknown, string][] = [[base, head, pointer]];
  const ctx: DiffContext = {
    ...documents,
    seen: new Map(),
    changes,
    compare: (a, b, at) => queue.push([a, b, at]),
    report: (at, rule, message) => changes.push({ pointer: at, rule, message }),
  };
  for (let i = 0; i < queue.length; i++)
    compareNodes(ctx, ...(queue[i] as [unknown, unknown, string]));
  return changes;
}

function compareNodes(
  ctx: DiffContext,
  baseNode: unknown,
  headNode: unknown,
  pointer: string,
): void {
  if (isPlainObject(baseNode) && isPlainObject(headNode)) {
    const pairs = ctx.seen.get(baseNode) ?? new Set<object>();
    if (pairs.has(headNode)) return;
    pairs.add(headNode);
    ctx.seen.set(baseNode, pairs);
  }
  const a = resolveSchema(ctx.base, baseNode);
  const b = resolveSchema(ctx.head, headNode);
  if (a.unresolved !== b.unresolved) {
    ctx.report(
      joinPointer(pointer, "$ref"),
      "constraint-changed",
      `$ref ${JSON.stringify(a.unresolved ?? null)} became ${JSON.stringify(b.unresolved ?? null)}, which flowgen cannot follow`,
    );
  }
  // JSON Schema 2020-12 §4.3.2: `false` accepts nothing, `true` (here `{}`) everything.
  if (a.schema === false || b.schema === false) {
    if (a.schema === false && b.schema !== false)
      ctx.report(pointer, "constraint-removed", "accepted no value before, now does");
    if (a.schema !== false && b.schema === false)
      ctx.report(pointer, "constraint-added", "accepts no value now");
    return;
  }
  const wrapped = unionWrapping(baseNode, a.schema, headNode, b.schema);
  if (wrapped) {
    compareAnnotations(ctx, a.schema, b.schema, pointer);
    wrapped(ctx, pointer);
    return;
  }
  compareSchemaKeywords(ctx, a.schema, b.schema, pointer);
}

/** The flat rule set, keyword family by keyword family. */
function compareSchemaKeywords(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  compareAnnotations(ctx, a, b, pointer);
  compareTypes(ctx, a, b, pointer);
  compareEnums(ctx, a, b, pointer);
  compareBounds(ctx, a, b, pointer);
  comparePatterns(ctx, a, b, pointer);
  compareObjects(ctx, a, b, pointer);
  compareArrays(ctx, a, b, pointer);
  compareCombinators(ctx, a, b, pointer);
  compareUnclassified(ctx, a, b, pointer);
}
