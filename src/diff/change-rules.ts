/**
 * The rule set of `flowgen diff`: every kind of change it reports, and whether it breaks callers.
 * A flow's input is what callers send, so a change breaks them when the new schema rejects a value
 * the old one accepted. Its output is what callers receive, so a change breaks them when the new
 * schema allows a value the old one did not, or takes away something they read.
 */

export type Side = "input" | "output";
export type ChangeKind = "breaking" | "compatible";

const B = "breaking";
const C = "compatible";

interface Rule {
  /** Classification for a change to the flow's input schema (or to the flow itself). */
  readonly input: ChangeKind;
  /** Classification for a change to the flow's output schema. */
  readonly output: ChangeKind;
  readonly summary: string;
}

/** One flat table; each row is also one row of the table-driven test in test/diff-rules.test.ts. */
export const CHANGE_RULES = {
  "flow-added": { input: C, output: C, summary: "A new flow." },
  "flow-removed": {
    input: B,
    output: B,
    summary: "A flow was removed; the message says whether it was deprecated first.",
  },
  "flow-deprecated": { input: C, output: C, summary: "A flow is now deprecated." },
  "flow-undeprecated": { input: C, output: C, summary: "A flow is no longer deprecated." },
  "description-changed": {
    input: C,
    output: C,
    summary: "A summary, title, description, default or example changed.",
  },
  "property-added": {
    input: C,
    output: C,
    summary: "A new optional input property, or a new output property.",
  },
  "property-added-closed": {
    input: C,
    output: B,
    summary:
      "A new output property where the old schema allowed no additional properties: older clients that check output reject it.",
  },
  "property-removed": {
    input: C,
    output: B,
    summary: "A property was removed (input: still accepted as an additional property).",
  },
  "property-removed-closed": {
    input: B,
    output: B,
    summary: "A property was removed where additional properties are not allowed.",
  },
  "property-deprecated": { input: C, output: C, summary: "A property is now deprecated." },
  "required-added": { input: B, output: C, summary: "A property is now required." },
  "required-removed": { input: C, output: B, summary: "A property is no longer required." },
  "type-narrowed": { input: B, output: C, summary: "Fewer types are allowed." },
  "type-widened": { input: C, output: B, summary: "More types are allowed." },
  "type-changed": {
    input: B,
    output: B,
    summary: "The type changed: some were removed, others added.",
  },
  "nullable-added": {
    input: C,
    output: B,
    summary: "null is now allowed (a type, an enum value or a oneOf/anyOf branch).",
  },
  "nullable-removed": { input: B, output: C, summary: "null is no longer allowed." },
  "enum-value-added": { input: C, output: B, summary: "An enum (or const) allows a new value." },
  "enum-value-removed": {
    input: B,
    output: C,
    summary: "An enum (or const) no longer allows a value.",
  },
  "bound-tightened": {
    input: B,
    output: C,
    summary:
      "A bound was added or tightened: minimum, maximum, exclusive*, min/maxLength, min/maxItems, min/maxProperties, min/maxContains, multipleOf, uniqueItems.",
  },
  "bound-loosened": { input: C, output: B, summary: "A bound was removed or loosened." },
  "pattern-added": { input: B, output: C, summary: "A pattern or format was added." },
  "pattern-removed": { input: C, output: B, summary: "A pattern or format was removed." },
  "pattern-changed": { input: B, output: B, summary: "A pattern or format was changed." },
  "additional-properties-closed": {
    input: B,
    output: C,
    summary: "Additional properties are now restricted.",
  },
  "additional-properties-opened": {
    input: C,
    output: B,
    summary: "Additional properties are now allowed.",
  },
  "branch-added": { input: C, output: B, summary: "A oneOf/anyOf branch was added." },
  "branch-removed": { input: B, output: C, summary: "A oneOf/anyOf branch was removed." },
  "constraint-added": {
    input: B,
    output: C,
    summary:
      "A constraint was added: allOf, oneOf/anyOf where none was, items, prefixItems, contains, patternProperties, propertyNames, dependentRequired/dependentSchemas, or a schema that accepts nothing.",
  },
  "constraint-removed": { input: C, output: B, summary: "A constraint was removed." },
  "constraint-changed": {
    input: B,
    output: B,
    summary:
      "Conservatively breaking: not, if/then/else, anyOf↔oneOf, $ref leaving the document, or a keyword flowgen does not classify changed.",
  },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof CHANGE_RULES;

/**
 * Breaking or compatible, for a change of kind `rule` found on `side` (flow-level changes use "input").
 *
 * @example
 * classifyChange("required-added", "input"); // "breaking"
 * classifyChange("required-added", "output"); // "compatible"
 */
export function classifyChange(rule: RuleId, side: Side): ChangeKind {
  return CHANGE_RULES[rule][side];
}
