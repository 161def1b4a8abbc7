import { getAtPointer, isPlainObject } from "../json-pointer.js";

/** A schema with its `$ref` followed: JSON Schema 2020-12 §8.2.3.1, local references only. */
export interface ResolvedSchema {
  /** `true` stands for `{}`; an object schema has no `$ref` left. */
  readonly schema: Record<string, unknown> | false;
  /** A `$ref` that leads out of the document or nowhere; compared as text. */
  readonly unresolved?: string;
}

/**
 * Follows `$ref` chains inside one OpenAPI document. Keywords beside a `$ref` apply too (2020-12
 * allows them), so they are laid over the target; the annotations they usually are win. A chain
 * that comes back to itself resolves to `{}` instead of looping.
 *
 * @example
 * resolveSchema(document, { $ref: "#/components/schemas/acme.qa.Input" }).schema.type; // "object"
 */
export function resolveSchema(document: unknown, node: unknown): ResolvedSchema {
  if (isPlainObject(node) && node.$ref === undefined) return { schema: node };
  const followed = new Set<string>();
  let current = node;
  let siblings: Record<string, unknown> = {};
  for (;;) {
    if (current === true || current === undefined) return { schema: siblings };
    if (current === false) return { schema: false };
    if (!isPlainObject(current)) return { schema: siblings };
    const { $ref: ref, ...rest } = current;
    siblings = { ...rest, ...siblings };
    if (typeof ref !== "string") return { schema: siblings };
    if (followed.has(ref)) return { schema: siblings };
    followed.add(ref);
    const target = refTarget(document, ref);
    if (target === undefined) return { schema: siblings, unresolved: ref };
    current = target;
  }
}

/**
 * What a `$ref` points at in the document, one step (no chain followed); undefined when it leads
 * out of the document or nowhere.
 *
 * @example
 * refTarget(document, "#/components/schemas/acme.qa.Input"); // { type: "object", … }
 */
export function refTarget(document: unknown, ref: string): unknown {
  return ref.startsWith("#") ? getAtPointer(document, safeDecode(ref.slice(1))) : undefined;
}

/** `$ref` fragments are URI-encoded JSON pointers (RFC 6901 §6). */
function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** JSON with sorted keys, so two equal values give the same text whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
