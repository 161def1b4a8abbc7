import { compareText } from "../issues.js";
import { getAtPointer, isPlainObject } from "../json-pointer.js";
import { classifyChange, type ChangeKind, type RuleId, type Side } from "./change-rules.js";
import { refTarget, resolveSchema } from "./resolve-schema.js";
import { diffSchemas } from "./schema-diff.js";

/** One change to one flow's contract, as callers see it. */
export interface ContractChange {
  /** The flow id, `@acme/qa`. */
  readonly flow: string;
  /** JSON pointer from the flow's spec root (`/input/required`); "" for the flow itself. Into the head, or the base for what was removed. */
  readonly pointer: string;
  readonly kind: ChangeKind;
  readonly rule: RuleId;
  readonly message: string;
}

export interface DiffReport {
  /** What was compared, for people: `HEAD:specs`, `generated/openapi.json`. */
  readonly base: string;
  readonly head: string;
  readonly breaking: number;
  readonly compatible: number;
  /** Sorted by flow, pointer and message. */
  readonly changes: readonly ContractChange[];
  /** Flows the head marks deprecated, sorted: still compatible, listed so their removal can be planned. */
  readonly deprecated: readonly string[];
}

interface FlowOperation {
  readonly path: string;
  readonly operation: Record<string, unknown>;
}

/** Seed §4: a flow runs at POST /v1/@org/flow-name. */
const FLOW_PATH = /^\/v1\/(@[^/]+\/[^/]+)$/;

/**
 * Compares two OpenAPI documents flow by flow. Each flow is found by its path and its schemas by
 * following the operation's request body and 200 response, so component names do not matter.
 *
 * @example
 * const report = diffContracts(committedOpenApi, newOpenApi, { base: "generated/openapi.json", head: "specs" });
 * report.changes[0]; // { flow: "@acme/qa", pointer: "/input/required", kind: "breaking", rule: "required-added", message: "\"lang\" is now required" }
 */
export function diffContracts(
  base: unknown,
  head: unknown,
  labels: { base: string; head: string } = { base: "base", head: "head" },
  options: {
    /** Flows in both whose contracts are known to be the same (rendered from the same inputs): not compared. */
    readonly unchanged?: ReadonlySet<string>;
  } = {},
): DiffReport {
  // Flows share components (error responses, headers): each `$ref` is looked up once per document.
  const [baseTarget, headTarget] = [base, head].map((document) => {
    const targets = new Map<string, unknown>();
    return (ref: string) =>
      targets.has(ref) ? targets.get(ref) : targets.set(ref, refTarget(document, ref)).get(ref);
  }) as [(ref: string) => unknown, (ref: string) => unknown];
  const before = flowOperations(base);
  const after = flowOperations(head);
  // `$ref`s whose targets, and all they reach, a flow checked before found equal in both documents.
  const sameRefs = new Set<string>();
  const changes: ContractChange[] = [];
  const add = (flow: string, side: Side, pointer: string, rule: RuleId, message: string) =>
    changes.push({ flow, pointer, kind: classifyChange(rule, side), rule, message });
  for (const flow of [...new Set([...before.keys(), ...after.keys()])].sort(compareText)) {
    const was = before.get(flow);
    const now = after.get(flow);
    if (!was) add(flow, "input", "", "flow-added", "new flow");
    else if (!now) {
      const message =
        was.operation.deprecated === true
          ? "flow removed (it was deprecated)"
          : 'flow removed without being deprecated first; mark it "deprecated": true in a release before removing it';
      add(flow, "input", "", "flow-removed", message);
    } else if (
      options.unchanged?.has(flow) !== true &&
      !sameClosure([baseTarget, headTarget], was.operation, now.operation, sameRefs)
    ) {
      compareOperation(base, was.operation, head, now.operation, (side, pointer, rule, message) =>
        add(flow, side, pointer, rule, message),
      );
    }
  }
  changes.sort(
    (x, y) =>
      compareText(x.flow, y.flow) ||
      compareText(x.pointer, y.pointer) ||
      compareText(x.message, y.message),
  );
  const deprecated = [...after]
    .filter(([, flow]) => flow.operation.deprecated === true)
    .map(([id]) => id)
    .sort(compareText);
  const breaking = changes.filter((change) => change.kind === "breaking").length;
  return {
    base: labels.base,
    head: labels.head,
    breaking,
    compatible: changes.length - breaking,
    changes,
    deprecated,
  };
}

function compareOperation(
  base: unknown,
  was: Record<string, unknown>,
  head: unknown,
  now: Record<string, unknown>,
  add: (side: Side, pointer: string, rule: RuleId, message: string) => void,
): void {
  if ((was.deprecated === true) !== (now.deprecated === true)) {
    add(
      "input",
      "/deprecated",
      now.deprecated === true ? "flow-deprecated" : "flow-undeprecated",
      now.deprecated === true ? "flow deprecated" : "flow no longer deprecated",
    );
  }
  for (const key of ["summary", "description"]) {
    if (was[key] !== now[key]) add("input", `/${key}`, "description-changed", `${key} changed`);
  }
  for (const side of ["input", "output"] as const) {
    const schemaOf = side === "input" ? inputSchema : outputSchema;
    for (const change of diffSchemas(
      { side, base, head },
      schemaOf(base, was),
      schemaOf(head, now),
      `/${side}`,
    ))
      add(side, change.pointer, change.rule, change.message);
  }
}

/**
 * Whether a flow's operation, and everything its `$ref`s reach, is the same in both documents,
 * keys in the same order. The comparison of a flow reads nothing else, so such a flow has no
 * changes and is not compared: after a one-flow edit, that is every other flow.
 */
function sameClosure(
  [baseTarget, headTarget]: readonly [(ref: string) => unknown, (ref: string) => unknown],
  was: unknown,
  now: unknown,
  sameRefs: Set<string>,
): boolean {
  const pending: [unknown, unknown][] = [[was, now]];
  const followed = new Set<string>();
  const same = (a: unknown, b: unknown): boolean => {
    // One object in both documents can still hold a `$ref` whose targets differ: only values are equal by identity.
    if (typeof a !== "object" || a === null) return a === b;
    if (typeof b !== "object" || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b))
      return a.length === b.length && a.every((item, i) => same(item, b[i]));
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keys = Object.keys(x);
    const otherKeys = Object.keys(y);
    if (
      keys.length !== otherKeys.length ||
      keys.some((key, i) => key !== otherKeys[i] || !same(x[key], y[key]))
    )
      return false;
    if (typeof x.$ref === "string" && !followed.has(x.$ref) && !sameRefs.has(x.$ref)) {
      followed.add(x.$ref);
      pending.push([baseTarget(x.$ref), headTarget(x.$ref)]);
    }
    return true;
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    if (!same(...next)) return false;
  // Everything followed was compared, and found equal: later flows that reach it need not again.
  for (const ref of followed) sameRefs.add(ref);
  return true;
}

/** Every flow operation in the document, by flow id. */
function flowOperations(document: unknown): Map<string, FlowOperation> {
  const flows = new Map<string, FlowOperation>();
  const paths = isPlainObject(document) && isPlainObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    const id = FLOW_PATH.exec(path)?.[1];
    const operation = isPlainObject(item) ? item.post : undefined;
    if (id !== undefined && isPlainObject(operation)) flows.set(id, { path, operation });
  }
  return flows;
}

/** OpenAPI 3.1 §4.8.13: the request body, or its `$ref` to `#/components/requestBodies`. */
function inputSchema(document: unknown, operation: Record<string, unknown>): unknown {
  return jsonContentSchema(document, operation.requestBody);
}

/** OpenAPI 3.1 §4.8.16–17: the 200 response, or its `$ref` to `#/components/responses`. */
function outputSchema(document: unknown, operation: Record<string, unknown>): unknown {
  return jsonContentSchema(document, getAtPointer(operation, "/responses/200"));
}

/** No body declared means any JSON: the `true` schema. */
function jsonContentSchema(document: unknown, holder: unknown): unknown {
  const resolved = resolveSchema(document, holder).schema;
  return (
    (resolved === false
      ? undefined
      : getAtPointer(resolved, "/content/application~1json/schema")) ?? true
  );
}
