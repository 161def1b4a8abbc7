import { compareText } from "../issues.js";
import { isPlainObject, joinPointer } from "../json-pointer.js";
import { stableJson } from "./resolve-schema.js";
import { quote, type DiffContext, type Schema } from "./diff-context.js";

function recordOf(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

function namesOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((name): name is string => typeof name === "string")
    : [];
}

function unionOfKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareText);
}

/** No property beyond those listed is accepted (Core §10.3.2.3, §11.3). */
function isClosed(schema: Schema): boolean {
  return schema.additionalProperties === false || schema.unevaluatedProperties === false;
}

/** Object keywords: Core §10.3.2 and Validation §6.5. */
export function compareObjects(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  compareProperties(ctx, a, b, pointer);
  compareRequired(ctx, a, b, pointer);
  compareOtherObjectKeywords(ctx, a, b, pointer);
}

/** Each property of either side: compared when both have it, else reported removed or added. */
function compareProperties(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const before = recordOf(a.properties);
  const after = recordOf(b.properties);
  const requiredAfter = new Set(namesOf(b.required));
  for (const name of unionOfKeys(before, after)) {
    const at = joinPointer(pointer, "properties", name);
    if (Object.hasOwn(before, name) && Object.hasOwn(after, name))
      ctx.compare(before[name], after[name], at);
    else if (Object.hasOwn(before, name)) reportRemovedProperty(ctx, b, name, at);
    else reportAddedProperty(ctx, a, name, at, requiredAfter.has(name));
  }
}

function reportRemovedProperty(ctx: DiffContext, after: Schema, name: string, at: string): void {
  if (isClosed(after))
    ctx.report(
      at,
      "property-removed-closed",
      `property ${quote(name)} was removed and no additional properties are allowed${ctx.side === "input" ? ": callers that still send it are rejected" : ""}`,
    );
  else ctx.report(at, "property-removed", `property ${quote(name)} was removed`);
}

/** A new input property that is required is reported as `required-added` instead. */
function reportAddedProperty(
  ctx: DiffContext,
  before: Schema,
  name: string,
  at: string,
  required: boolean,
): void {
  if (ctx.side === "output" && isClosed(before)) {
    ctx.report(
      at,
      "property-added-closed",
      `new property ${quote(name)}, where no additional properties were allowed: older clients that check output reject it`,
    );
  } else if (!(ctx.side === "input" && required)) {
    ctx.report(at, "property-added", `new property ${quote(name)}`);
  }
}

/** Names that became required, and names no longer required. */
function compareRequired(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const before = recordOf(a.properties);
  const after = recordOf(b.properties);
  const requiredBefore = new Set(namesOf(a.required));
  const requiredAfter = new Set(namesOf(b.required));
  const requiredAt = joinPointer(pointer, "required");
  // A removed property already says so; a new output property that is required tells callers nothing more.
  for (const name of [...requiredAfter].filter((n) => !requiredBefore.has(n)).sort(compareText)) {
    if (ctx.side === "output" && !Object.hasOwn(before, name) && Object.hasOwn(after, name))
      continue;
    ctx.report(requiredAt, "required-added", `${quote(name)} is now required`);
  }
  for (const name of [...requiredBefore].filter((n) => !requiredAfter.has(n)).sort(compareText)) {
    if (Object.hasOwn(before, name) && !Object.hasOwn(after, name)) continue;
    ctx.report(
      requiredAt,
      "required-removed",
      `${quote(name)} is no longer required${ctx.side === "output" ? ": callers may not get it" : ""}`,
    );
  }
}

/** The object keywords besides `properties` and `required`: for unlisted properties, names and dependencies. */
function compareOtherObjectKeywords(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  for (const keyword of ["additionalProperties", "unevaluatedProperties"])
    compareAdditional(ctx, a[keyword], b[keyword], joinPointer(pointer, keyword));
  compareSchemaMap(
    ctx,
    recordOf(a.patternProperties),
    recordOf(b.patternProperties),
    joinPointer(pointer, "patternProperties"),
    "pattern property",
  );
  compareSchemaMap(
    ctx,
    recordOf(a.dependentSchemas),
    recordOf(b.dependentSchemas),
    joinPointer(pointer, "dependentSchemas"),
    "dependent schema",
  );
  compareOptional(ctx, a.propertyNames, b.propertyNames, joinPointer(pointer, "propertyNames"));
  compareDependentRequired(
    ctx,
    recordOf(a.dependentRequired),
    recordOf(b.dependentRequired),
    joinPointer(pointer, "dependentRequired"),
  );
}

function compareAdditional(ctx: DiffContext, before: unknown, after: unknown, at: string): void {
  if (before === false && after !== false)
    ctx.report(at, "additional-properties-opened", "additional properties are allowed now");
  else if (before !== false && after === false)
    ctx.report(at, "additional-properties-closed", "additional properties are no longer allowed");
  else if (before !== false) compareOptional(ctx, before, after, at);
}

/** An absent subschema keyword is the `true` schema (Core §10.3): compared as such, it reports what was added. */
function compareOptional(ctx: DiffContext, before: unknown, after: unknown, at: string): void {
  if (before === undefined && after === undefined) return;
  ctx.compare(before ?? true, after ?? true, at);
}

function compareSchemaMap(
  ctx: DiffContext,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  pointer: string,
  what: string,
): void {
  for (const key of unionOfKeys(before, after)) {
    const at = joinPointer(pointer, key);
    if (Object.hasOwn(before, key) && Object.hasOwn(after, key))
      ctx.compare(before[key], after[key], at);
    else if (Object.hasOwn(after, key))
      ctx.report(at, "constraint-added", `${what} ${quote(key)} added`);
    else ctx.report(at, "constraint-removed", `${what} ${quote(key)} removed`);
  }
}

function compareDependentRequired(
  ctx: DiffContext,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  pointer: string,
): void {
  for (const key of unionOfKeys(before, after)) {
    if (stableJson(before[key]) === stableJson(after[key])) continue;
    const was = new Set(namesOf(before[key]));
    const now = new Set(namesOf(after[key]));
    const at = joinPointer(pointer, key);
    for (const name of [...now].filter((n) => !was.has(n)))
      ctx.report(
        at,
        "constraint-added",
        `${quote(name)} is now required when ${quote(key)} is present`,
      );
    for (const name of [...was].filter((n) => !now.has(n)))
      ctx.report(
        at,
        "constraint-removed",
        `${quote(name)} is no longer required when ${quote(key)} is present`,
      );
  }
}

/** Array keywords: Core §10.3.1 and Validation §6.4. A tuple position beyond the old ones counts as new. */
export function compareArrays(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const before = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const after = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const at = joinPointer(pointer, "prefixItems", i);
    if (i < before.length && i < after.length) ctx.compare(before[i], after[i], at);
    else if (i < after.length) ctx.report(at, "constraint-added", `tuple position ${i} added`);
    else ctx.report(at, "constraint-removed", `tuple position ${i} removed`);
  }
  compareOptional(ctx, a.items, b.items, joinPointer(pointer, "items"));
  compareOptional(
    ctx,
    a.unevaluatedItems,
    b.unevaluatedItems,
    joinPointer(pointer, "unevaluatedItems"),
  );
  const contains = joinPointer(pointer, "contains");
  if (a.contains === undefined && b.contains !== undefined)
    ctx.report(contains, "constraint-added", "contains added");
  else if (a.contains !== undefined && b.contains === undefined)
    ctx.report(contains, "constraint-removed", "contains removed");
  else compareOptional(ctx, a.contains, b.contains, contains);
}
