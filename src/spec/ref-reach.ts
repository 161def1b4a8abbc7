import { refFile, type SpecIndex } from "./schema-refs.js";

/**
 * The files whose `$ref`s lead to one of `unsound`, directly or through other files, and the
 * unsound files themselves. A value is checked against a schema by Ajv, which compiles whatever
 * the schema's `$ref`s reach: a file that does not parse, breaks the meta-schema or holds a `$ref`
 * cycle would send it astray or round forever. The values of the files returned wait until those
 * are fixed; every other file's are checked in the same run. Every `$ref` in a file counts, used
 * by the schema checked or not: more files wait than need to, never fewer.
 *
 * @example
 * filesReaching(index, new Set(["_shared/loop.json"])); // Set { "_shared/loop.json", "@acme/qa.json" }
 */
export function filesReaching(index: SpecIndex, unsound: ReadonlySet<string>): Set<string> {
  const referrers = new Map<string, string[]>();
  for (const [relPath, value] of index.files)
    for (const target of refFilesOf(relPath, value)) {
      const known = referrers.get(target);
      if (known === undefined) referrers.set(target, [relPath]);
      else known.push(relPath);
    }
  const reaching = new Set(unsound);
  const queue = [...unsound];
  for (let target = queue.pop(); target !== undefined; target = queue.pop()) {
    for (const referrer of referrers.get(target) ?? []) {
      if (reaching.has(referrer)) continue;
      reaching.add(referrer);
      queue.push(referrer);
    }
  }
  return reaching;
}

/** The files named by every `$ref` string anywhere in `value`, the file at `relPath`. */
function refFilesOf(relPath: string, value: unknown): Set<string> {
  const files = new Set<string>();
  const stack = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== "object" || node === null) continue;
    const ref = Object.hasOwn(node, "$ref") ? (node as { $ref: unknown }).$ref : undefined;
    const file = typeof ref === "string" ? refFile(ref, relPath) : undefined;
    if (file !== undefined && file !== relPath) files.add(file);
    for (const child of Object.values(node)) stack.push(child);
  }
  return files;
}
