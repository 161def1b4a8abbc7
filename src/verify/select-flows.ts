import { closest } from "fastest-levenshtein";
import type { Issue } from "../issues.js";

/**
 * The flow ids that `patterns` select, in the order of `ids`: each pattern is an id
 * (`@acme/qa`) or a glob in which `*` stands for any run of characters other than `/`
 * (`@acme/*`, or a star before the slash for every org). No pattern selects every flow. A pattern that selects nothing is
 * an `unknown-flow` issue naming the nearest id.
 *
 * @example
 * selectFlows(["@acme/qa", "@acme/search", "@globex/search"], ["@acme/*"]); // { ok: true, ids: ["@acme/qa", "@acme/search"] }
 */
export function selectFlows(
  ids: readonly string[],
  patterns: readonly string[],
): { ok: true; ids: string[] } | { ok: false; issues: Issue[] } {
  if (patterns.length === 0) return { ok: true, ids: [...ids] };
  const chosen = new Set<string>();
  const issues: Issue[] = [];
  for (const pattern of patterns) {
    const matcher = globMatcher(pattern);
    const matched = ids.filter(matcher);
    for (const id of matched) chosen.add(id);
    if (matched.length === 0)
      issues.push({
        code: "unknown-flow",
        file: pattern,
        message:
          ids.length === 0
            ? "no flow has a spec"
            : `no flow with a spec matches; did you mean ${closest(pattern, [...ids])}? Name flows as @org/flow-name, or with * for any part: @org/*`,
      });
  }
  return issues.length > 0
    ? { ok: false, issues }
    : { ok: true, ids: ids.filter((id) => chosen.has(id)) };
}

/**
 * Compares segment by segment without regular expressions: `*` matches greedily within its
 * segment, and the work stays linear in the pattern and id lengths times the number of stars.
 */
function globMatcher(pattern: string): (id: string) => boolean {
  const patternParts = pattern.split("/");
  return (id) => {
    const idParts = id.split("/");
    return (
      idParts.length === patternParts.length &&
      patternParts.every((part, i) => matchSegment(part, idParts[i] ?? ""))
    );
  };
}

function matchSegment(pattern: string, text: string): boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0] ?? "";
  const last = pieces[pieces.length - 1] ?? "";
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last))
    return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
