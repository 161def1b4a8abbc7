import { isPlainObject, joinPointer } from "../json-pointer.js";
import { resolveSchema, stableJson } from "./resolve-schema.js";
import { quote, type DiffContext, type Schema } from "./diff-context.js";

type Union = "anyOf" | "oneOf";
type Combinator = Union | "allOf";

/** Where each side's branches sit, so a change is reported at the head's pointer (the base's for what was removed). */
interface Branches {
  readonly nodes: readonly unknown[];
  readonly pointer: (index: number) => string;
}

/**
 * Applicator keywords (Core §10.2). anyOf/oneOf branches are paired by what they are, not where:
 * the same JSON, the same `$ref`, the same const-valued properties (discriminators), then, among
 * the rest, the same types in order. A branch without a partner was added or removed. Conservative:
 * `not` and `if`/`then`/`else` changes are compared as text and count as breaking.
 */
export function compareCombinators(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const swapped = unionSwap(a, b);
  if (swapped) {
    const { from, to } = swapped;
    // oneOf rejects a value that matches two branches, anyOf does not: oneOf is the stricter.
    ctx.report(
      joinPointer(pointer, to),
      to === "oneOf" ? "constraint-added" : "constraint-removed",
      `${from} became ${to}`,
    );
    compareBranches(ctx, to, branchesAt(a[from], pointer, from), branchesAt(b[to], pointer, to));
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
    if (swapped && (keyword === swapped.from || keyword === swapped.to)) continue;
    const before = a[keyword];
    const after = b[keyword];
    if (before === undefined && after === undefined) continue;
    const at = joinPointer(pointer, keyword);
    if (before === undefined) ctx.report(at, "constraint-added", `${keyword} added`);
    else if (after === undefined) ctx.report(at, "constraint-removed", `${keyword} removed`);
    else
      compareBranches(
        ctx,
        keyword,
        branchesAt(before, pointer, keyword),
        branchesAt(after, pointer, keyword),
      );
  }
  for (const keyword of ["not", "if", "then", "else"]) {
    if (stableJson(a[keyword]) === stableJson(b[keyword])) continue;
    ctx.report(
      joinPointer(pointer, keyword),
      "constraint-changed",
      `${keyword} changed; flowgen does not tell whether that accepts more or less, so it counts as breaking`,
    );
  }
}

/** anyOf on one side, oneOf on the other, each alone. */
function unionSwap(a: Schema, b: Schema): { from: Union; to: Union } | undefined {
  if (
    Array.isArray(a.anyOf) &&
    a.oneOf === undefined &&
    Array.isArray(b.oneOf) &&
    b.anyOf === undefined
  )
    return { from: "anyOf", to: "oneOf" };
  if (
    Array.isArray(a.oneOf) &&
    a.anyOf === undefined &&
    Array.isArray(b.anyOf) &&
    b.oneOf === undefined
  )
    return { from: "oneOf", to: "anyOf" };
  return undefined;
}

function branchesAt(value: unknown, pointer: string, keyword: string): Branches {
  return {
    nodes: Array.isArray(value) ? value : [],
    pointer: (index) => joinPointer(pointer, keyword, index),
  };
}

/**
 * A schema that became a union with itself as one branch (`{$ref: X}` → `oneOf: [{$ref: X}, {type: "null"}]`),
 * or the reverse: compared branch to branch, so only the added or removed branches show.
 */
export function unionWrapping(
  baseNode: unknown,
  a: Schema,
  headNode: unknown,
  b: Schema,
): ((ctx: DiffContext, pointer: string) => void) | undefined {
  const unionOf = (schema: Schema): Union | undefined =>
    Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined;
  const plain = (schema: Schema) =>
    schema.oneOf === undefined && schema.anyOf === undefined && schema.allOf === undefined;
  const headUnion = unionOf(b);
  if (
    headUnion &&
    plain(a) &&
    (b[headUnion] as unknown[]).some((branch) => sameBranch(baseNode, branch))
  ) {
    return (ctx, pointer) =>
      compareBranches(
        ctx,
        headUnion,
        { nodes: [baseNode], pointer: () => pointer },
        branchesAt(b[headUnion], pointer, headUnion),
      );
  }
  const baseUnion = unionOf(a);
  if (
    baseUnion &&
    plain(b) &&
    (a[baseUnion] as unknown[]).some((branch) => sameBranch(branch, headNode))
  ) {
    return (ctx, pointer) =>
      compareBranches(ctx, baseUnion, branchesAt(a[baseUnion], pointer, baseUnion), {
        nodes: [headNode],
        pointer: () => pointer,
      });
  }
  return undefined;
}

function sameBranch(x: unknown, y: unknown): boolean {
  if (isPlainObject(x) && isPlainObject(y) && typeof x.$ref === "string" && x.$ref === y.$ref)
    return true;
  return stableJson(x) === stableJson(y);
}

function compareBranches(
  ctx: DiffContext,
  keyword: Combinator,
  before: Branches,
  after: Branches,
): void {
  const pairs = pairBranches(ctx, before.nodes, after.nodes);
  for (const [i, j] of pairs) ctx.compare(before.nodes[i], after.nodes[j], after.pointer(j));
  reportUnpaired(ctx, keyword, before, new Set(pairs.map(([i]) => i)), "removed");
  reportUnpaired(ctx, keyword, after, new Set(pairs.map(([, j]) => j)), "added");
}

const UNPAIRED = {
  removed: {
    allOf: "constraint-removed",
    nullable: "nullable-removed",
    union: "branch-removed",
    nullMessage: "null is no longer allowed",
  },
  added: {
    allOf: "constraint-added",
    nullable: "nullable-added",
    union: "branch-added",
    nullMessage: "null is now allowed",
  },
} as const;

/** Branches without a partner: removed ones are read in the base document, added ones in the head. */
function reportUnpaired(
  ctx: DiffContext,
  keyword: Combinator,
  branches: Branches,
  paired: ReadonlySet<number>,
  change: "added" | "removed",
): void {
  const rules = UNPAIRED[change];
  branches.nodes.forEach((node, i) => {
    if (paired.has(i)) return;
    const schema = resolveSchema(change === "added" ? ctx.head : ctx.base, node).schema;
    const at = branches.pointer(i);
    if (keyword === "allOf")
      ctx.report(at, rules.allOf, `allOf branch ${describeBranch(schema, i)} ${change}`);
    else if (isNullOnly(schema)) ctx.report(at, rules.nullable, rules.nullMessage);
    else ctx.report(at, rules.union, `${keyword} branch ${describeBranch(schema, i)} ${change}`);
  });
}

/** [base index, head index] pairs, in passes from the surest match to the loosest. */
function pairBranches(
  ctx: DiffContext,
  before: readonly unknown[],
  after: readonly unknown[],
): [number, number][] {
  const resolvedBefore = before.map((node) => resolveSchema(ctx.base, node).schema);
  const resolvedAfter = after.map((node) => resolveSchema(ctx.head, node).schema);
  const keys: ((node: unknown, schema: Schema | false) => string | undefined)[] = [
    (node) => stableJson(node),
    (node) => (isPlainObject(node) && typeof node.$ref === "string" ? node.$ref : undefined),
    (_, schema) => constKey(schema),
    (_, schema) => (schema === false ? "false" : stableJson(schema.type ?? null)),
  ];
  const pairs: [number, number][] = [];
  const usedAfter = new Set<number>();
  const usedBefore = new Set<number>();
  for (const key of keys) {
    before.forEach((node, i) => {
      if (usedBefore.has(i)) return;
      const wanted = key(node, resolvedBefore[i] ?? {});
      if (wanted === undefined) return;
      const j = after.findIndex(
        (other, k) => !usedAfter.has(k) && key(other, resolvedAfter[k] ?? {}) === wanted,
      );
      if (j < 0) return;
      pairs.push([i, j]);
      usedBefore.add(i);
      usedAfter.add(j);
    });
  }
  return pairs;
}

/** `kind="company"`: the properties a branch fixes to one value, which is how unions are told apart. */
function constKey(schema: Schema | false): string | undefined {
  if (schema === false || !isPlainObject(schema.properties)) return undefined;
  const fixed = Object.entries(schema.properties)
    .map(([name, property]) => {
      if (!isPlainObject(property)) return undefined;
      if (property.const !== undefined) return `${name}=${stableJson(property.const)}`;
      return Array.isArray(property.enum) && property.enum.length === 1
        ? `${name}=${stableJson(property.enum[0])}`
        : undefined;
    })
    .filter((entry) => entry !== undefined)
    .sort();
  return fixed.length === 0 ? undefined : fixed.join("&");
}

function isNullOnly(schema: Schema | false): boolean {
  return (
    schema !== false &&
    (schema.type === "null" ||
      (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null") ||
      schema.const === null)
  );
}

function describeBranch(schema: Schema | false, index: number): string {
  const key = constKey(schema);
  if (key !== undefined) return `with ${key.replaceAll("&", ", ")}`;
  if (schema !== false && typeof schema.title === "string") return quote(schema.title);
  if (schema !== false && schema.type !== undefined) return `${index} (${quote(schema.type)})`;
  return String(index);
}
