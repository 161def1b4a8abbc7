import { getAtPointer, isPlainObject, joinPointer } from "../json-pointer.js";
import {
  resolveRef,
  type RefTarget,
  type SchemaFinding,
  type SchemaResource,
  type SpecIndex,
} from "./schema-refs.js";

/** Applicators that apply a subschema to the same value (JSON Schema 2020-12 Core §10.2): no step into the data. */
const IN_PLACE_ARRAYS = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_SINGLE = ["not", "if", "then", "else"] as const;

type Place = RefTarget;

/**
 * Finds `$ref` cycles that never step into the data: `a.json` is `{ "$ref": "b.json" }` and
 * `b.json` is `{ "anyOf": [{ "$ref": "a.json" }, …] }`. Recursion is fine inside `properties` or
 * `items`, where each turn describes a smaller part of the value; a cycle of in-place applicators
 * applies itself to the same value forever, so no validator (Ajv at generate time, the server, a
 * generated client) can finish checking a value against it. Each cycle is reported once, at the
 * reference that closes it. Every `$ref` must already resolve.
 *
 * The search starts at each root and at each place a `$ref` of the files checked leads to
 * (`targets`): every such cycle takes a `$ref`, so it is found even where the roots reach it only
 * through `properties` or `items` (a cycle in `$defs`).
 *
 * @example
 * findRefCycles(index, [{ relPath: "@acme/qa.json", root: "/input" }], targets);
 */
export function findRefCycles(
  index: SpecIndex,
  roots: readonly SchemaResource[],
  targets: readonly RefTarget[] = [],
): SchemaFinding[] {
  const state = new Map<string, "open" | "done">();
  const findings: SchemaFinding[] = [];
  // `path` holds the places entered so far, each with a label when a `$ref` led there, for the message.
  const visit = (
    place: Place,
    path: readonly { key: string; label: string | undefined }[],
  ): void => {
    const key = keyOf(place);
    state.set(key, "open");
    for (const { next, via, byRef } of inPlaceSteps(place, index)) {
      const nextKey = keyOf(next);
      const seen = state.get(nextKey);
      if (seen === "open") {
        const start = path.findIndex((step) => step.key === nextKey);
        const labels = path
          .slice(start)
          .flatMap((step) => (step.label === undefined ? [] : [step.label]));
        findings.push({
          code: "ref-cycle",
          relPath: place.resource.relPath,
          pointer: via,
          message: `this leads back to where it started (${[...labels, labelOf(next)].join(" → ")}) without stepping into any part of the value, so no validator can finish checking a value against it; put the recursion inside "properties" or "items", or remove this reference`,
        });
      } else if (seen === undefined)
        visit(next, [...path, { key: nextKey, label: byRef ? labelOf(next) : undefined }]);
    }
    state.set(key, "done");
  };
  const starts = [...roots.map((resource) => ({ resource, pointer: resource.root })), ...targets];
  for (const place of starts)
    if (!state.has(keyOf(place))) visit(place, [{ key: keyOf(place), label: labelOf(place) }]);
  return findings;
}

function keyOf(place: Place): string {
  return `${place.resource.relPath}#${place.pointer}`;
}

function labelOf(place: Place): string {
  return place.pointer === ""
    ? place.resource.relPath
    : `${place.resource.relPath}#${place.pointer}`;
}

function inPlaceSteps(
  place: Place,
  index: SpecIndex,
): { next: Place; via: string; byRef?: boolean }[] {
  const schema = getAtPointer(index.files.get(place.resource.relPath), place.pointer);
  if (!isPlainObject(schema)) return [];
  const steps: { next: Place; via: string; byRef?: boolean }[] = [];
  if (typeof schema.$ref === "string") {
    const resolved = resolveRef(schema.$ref, place.resource, index);
    if (resolved.ok)
      steps.push({
        next: { resource: resolved.resource, pointer: resolved.target.pointer },
        via: joinPointer(place.pointer, "$ref"),
        byRef: true,
      });
  }
  for (const keyword of IN_PLACE_ARRAYS) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    branches.forEach((_, i) => {
      const pointer = joinPointer(place.pointer, keyword, i);
      steps.push({ next: { resource: place.resource, pointer }, via: pointer });
    });
  }
  for (const keyword of IN_PLACE_SINGLE) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const pointer = joinPointer(place.pointer, keyword);
    steps.push({ next: { resource: place.resource, pointer }, via: pointer });
  }
  if (isPlainObject(schema.dependentSchemas)) {
    for (const name of Object.keys(schema.dependentSchemas)) {
      const pointer = joinPointer(place.pointer, "dependentSchemas", name);
      steps.push({ next: { resource: place.resource, pointer }, via: pointer });
    }
  }
  return steps;
}
