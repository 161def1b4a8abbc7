import path from "node:path";
import { hashContent, hashParts } from "../cache/render-cache.js";
import { compareText } from "../issues.js";
import type { OutputFile } from "../output-file.js";
import { readRegularFile } from "../read-text-files.js";
import { holdsKeyEscape } from "../spec/key-escape.js";
import type { SpecSources } from "../spec/read-spec-files.js";

/** Where the manifest lives in the output folder; committed with the rest of it. */
export const MANIFEST_PATH = ".flowgen-manifest.json";

/**
 * What the output folder was made from, in hashes only (no paths outside it, no times): enough
 * to tell, without rendering, that it is still what the specs give, and which files a run can
 * keep as they are.
 */
export interface OutputManifest {
  /** flowgen's version, its runtime templates, prettier's version and options, and the generate options. */
  readonly fingerprint: string;
  /** Per flow spec (path under the specs folder): a hash of its text, the shared schema files it references and the fingerprint. */
  readonly flows: Readonly<Record<string, string>>;
  /** Per output file: a hash of what it is rendered from (`inputs`) and of its content (`output`). */
  readonly files: Readonly<Record<string, { readonly inputs: string; readonly output: string }>>;
}

/** A file's content hash, as the manifest records it (the render cache's, SHA-512/256). */
export { hashContent };

/**
 * The hash of a shared schema file's text, by relPath ("" for a file not among the specs): each
 * file is hashed once, however many flows reach it and whoever asks.
 *
 * @example
 * const sharedHash = sharedFileHashes(sources);
 */
export function sharedFileHashes(sources: SpecSources): (relPath: string) => string {
  const texts = new Map(sources.shared.map((source) => [source.relPath, source.text]));
  const hashes = new Map<string, string>();
  return (relPath) => {
    let hash = hashes.get(relPath);
    const text = texts.get(relPath);
    if (hash === undefined && text !== undefined)
      hashes.set(relPath, (hash = hashParts(withLfLineEnds(text))));
    return hash ?? "";
  };
}

/**
 * Per flow spec, the hash of everything its output depends on: its text (CRLF read as LF), the
 * shared schema files it reaches by `$ref` (directly or through other shared files), and the
 * fingerprint.
 *
 * @example
 * const flows = hashFlowInputs(fingerprint, sources);
 */
export function hashFlowInputs(
  fingerprint: string,
  sources: SpecSources,
  sharedHash = sharedFileHashes(sources),
): Record<string, string> {
  const shared = new Map(sources.shared.map((source) => [source.relPath, source.text]));
  const entries = sources.flows.map((flow) => {
    const reachable = shared.size === 0 ? [] : findSharedFiles(flow.relPath, flow.text, shared);
    const reached = reachable.flatMap((relPath) => [relPath, sharedHash(relPath)]);
    return [
      flow.relPath,
      hashParts(fingerprint, flow.relPath, withLfLineEnds(flow.text), "|", ...reached),
    ] as const;
  });
  return Object.fromEntries([...entries].sort(([a], [b]) => compareText(a, b)));
}

/**
 * A spec's text as the manifest hashes it: with CRLF line ends read as LF. JSON and YAML read the
 * same values either way, and git checks files out with CRLF under `core.autocrlf=true` (Git for
 * Windows' default): the manifest of such a checkout is the committed one.
 */
function withLfLineEnds(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** `$ref` values in JSON or YAML text, quoted or not: the part before `#`. */
const REF = /\$ref["']?\s*:\s*["']?([^"'#\s,}\]]*)/g;
/** A discriminator mapping names schemas too, maybe in shared files: this scan does not read its values. */
const MAPPING = /\bmapping["']?\s*:/;
/**
 * Text this scan cannot read as the parsers do, besides an escape in a key (`holdsKeyEscape`): a YAML
 * anchor (an alias can stand for a key), or a YAML explicit key (`? $ref`, which a comment can follow).
 */
const UNREAD = /(^|[\s[{,:?-])&[^\s,\]}]|^\s*\?(\s|$)/m;

/**
 * The shared files (sorted) that `text` reaches by `$ref`. A reference that is not to a shared
 * file (a URL, a block scalar, a name this scan cannot read), a discriminator mapping, or text the
 * scan cannot read as the parsers do (`UNREAD`), counts as reaching all of them.
 */
function findSharedFiles(
  relPath: string,
  text: string,
  shared: ReadonlyMap<string, string>,
): string[] {
  const reached = new Set<string>();
  const pending = [{ relPath, text }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (MAPPING.test(next.text) || holdsKeyEscape(next.text) || UNREAD.test(next.text))
      return [...shared.keys()].sort(compareText);
    for (const match of next.text.matchAll(REF)) {
      const target = match[1] ?? "";
      if (target === "") continue;
      const resolved = path.posix.normalize(
        path.posix.join(path.posix.dirname(next.relPath), target),
      );
      const found = shared.get(resolved);
      if (found === undefined) return [...shared.keys()].sort(compareText);
      if (reached.has(resolved)) continue;
      reached.add(resolved);
      pending.push({ relPath: resolved, text: found });
    }
  }
  return [...reached].sort(compareText);
}

/**
 * The manifest for `files`, with keys sorted so that it is byte-identical on every machine.
 * `knownHash` gives a file's content hash when it is known already (the render cache hashed it).
 *
 * @example
 * const manifest = buildManifest(fingerprint, hashFlowInputs(fingerprint, sources), files, inputsByPath);
 */
export function buildManifest(
  fingerprint: string,
  flows: Readonly<Record<string, string>>,
  files: readonly OutputFile[],
  inputs: ReadonlyMap<string, string>,
  knownHash: (file: OutputFile) => string | undefined = () => undefined,
): OutputManifest {
  const sorted = [...files].sort((a, b) => compareText(a.path, b.path));
  return {
    fingerprint,
    flows,
    files: Object.fromEntries(
      sorted.map((file) => [
        file.path,
        {
          inputs: inputs.get(file.path) ?? "",
          output: knownHash(file) ?? hashContent(file.content),
        },
      ]),
    ),
  };
}

/**
 * The manifest in `outDir`, or undefined when there is none or it cannot be read as one.
 *
 * @example
 * const manifest = await readManifest("generated");
 */
export async function readManifest(outDir: string): Promise<OutputManifest | undefined> {
  const text = await readRegularFile(path.join(outDir, MANIFEST_PATH)).catch(() => undefined);
  return text === undefined ? undefined : parseManifest(text);
}

/**
 * The manifest a text holds, or undefined when it is not shaped like one.
 *
 * @example
 * const manifest = parseManifest(await readFile("generated/.flowgen-manifest.json", "utf8"));
 */
export function parseManifest(text: string): OutputManifest | undefined {
  try {
    const value = JSON.parse(text) as Partial<OutputManifest>;
    const { fingerprint, flows, files } = value;
    if (
      typeof fingerprint !== "string" ||
      typeof flows !== "object" ||
      flows === null ||
      typeof files !== "object" ||
      files === null
    )
      return undefined;
    return { fingerprint, flows, files };
  } catch {
    return undefined;
  }
}
