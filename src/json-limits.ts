import { escapePointerToken } from "./json-pointer.js";

/**
 * A value past a limit, and where: an array or object nested too deep, a number that is not
 * finite, or an object JSON has no form for (a YAML date, set, binary or ordered map).
 */
export interface ValueBeyondLimits {
  readonly pointer: string;
  readonly kind: "too-deep" | "not-finite" | "not-plain";
}

/** What a value may not be: nested `maxDepth` levels deep or more, and (when set) the rest. */
export interface ValueLimits {
  readonly maxDepth: number;
  readonly finiteNumbers?: boolean;
  /** Objects must be arrays or plain objects, as `JSON.parse` makes them. */
  readonly plainObjects?: boolean;
}

/**
 * The first value, in document order, that is an array or object nested `maxDepth` levels or more
 * below the root, or (with `finiteNumbers`) a number that is not finite (`1e400` parses as
 * Infinity). Recurses at most `maxDepth` levels, so a deep value cannot exhaust the stack here;
 * the pointer is built only for the value it finds.
 *
 * @example
 * findValueBeyondLimits({ a: [[]] }, { maxDepth: 2 }); // { pointer: "/a/0", kind: "too-deep" }
 */
export function findValueBeyondLimits(
  value: unknown,
  limits: ValueLimits,
): ValueBeyondLimits | undefined {
  const path: string[] = [];
  const visit = (node: unknown, depth: number): ValueBeyondLimits["kind"] | undefined => {
    const broken = limitBrokenBy(node, depth, limits);
    if (broken !== undefined || typeof node !== "object" || node === null) return broken;
    const isArray = Array.isArray(node);
    for (const key of Object.keys(node)) {
      const kind = visit((node as Record<string, unknown>)[key], depth + 1);
      if (kind === undefined) continue;
      path.push(isArray ? key : escapePointerToken(key));
      return kind;
    }
    return undefined;
  };
  const kind = visit(value, 0);
  return kind === undefined
    ? undefined
    : {
        pointer: path
          .reverse()
          .map((token) => `/${token}`)
          .join(""),
        kind,
      };
}

/**
 * Every value `findValueBeyondLimits` could find, in document order, where it stops at the first:
 * for reporting all of a file's at once. Nothing below a value nested too deep is looked at.
 *
 * @example
 * listValuesBeyondLimits({ a: Infinity, b: NaN }, { maxDepth: 8, finiteNumbers: true }).length; // 2
 */
export function listValuesBeyondLimits(value: unknown, limits: ValueLimits): ValueBeyondLimits[] {
  const found: ValueBeyondLimits[] = [];
  const path: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    const kind = limitBrokenBy(node, depth, limits);
    if (kind !== undefined)
      found.push({ pointer: path.map((token) => `/${token}`).join(""), kind });
    if (kind !== undefined || typeof node !== "object" || node === null) return;
    const isArray = Array.isArray(node);
    for (const key of Object.keys(node)) {
      path.push(isArray ? key : escapePointerToken(key));
      visit((node as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
  };
  visit(value, 0);
  return found;
}

/** Which limit `node`, `depth` levels below the root, is past itself (not counting its children). */
function limitBrokenBy(
  node: unknown,
  depth: number,
  limits: ValueLimits,
): ValueBeyondLimits["kind"] | undefined {
  if (typeof node === "number")
    return limits.finiteNumbers && !Number.isFinite(node) ? "not-finite" : undefined;
  if (typeof node !== "object" || node === null) return undefined;
  if (depth >= limits.maxDepth) return "too-deep";
  if (limits.plainObjects && !Array.isArray(node) && !isPlainPrototype(Object.getPrototypeOf(node)))
    return "not-plain";
  return undefined;
}

function isPlainPrototype(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}
