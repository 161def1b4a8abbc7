import { hashParts, type RenderCache } from "../cache/render-cache.js";
import { compareText, type Issue, type Rules } from "../issues.js";
import { hashFlowInputs, MANIFEST_PATH, sharedFileHashes } from "../manifest/output-manifest.js";
import type { OutputFile } from "../output-file.js";
import type { RuntimeTemplate } from "../runtime-templates.js";
import type { SpecSources } from "../spec/read-spec-files.js";

/** The generate options that change what a file renders to. */
export interface RenderSettings {
  readonly baseUrl?: string | undefined;
  readonly validators?: boolean | undefined;
  readonly moduleMarker?: boolean | undefined;
}

/** What every file of a run depends on besides its own inputs, before the specs are read. */
export interface FingerprintParts {
  /** A hash of flowgen's code (`codeFingerprint`). */
  readonly code: string;
  readonly version: string;
  readonly runtime: readonly RuntimeTemplate[];
  readonly validation: string;
  /** prettier's version and config sources (`Formatter.fingerprint`). */
  readonly formatter: string;
  readonly settings: RenderSettings;
}

/** A run's fingerprints: what its keys start from. */
export interface RunStamp {
  /** flowgen's version, templates, prettier's version and options, and the options: the manifest's fingerprint. */
  readonly fingerprint: string;
  /** `fingerprint` and a hash of flowgen's code: output cached by one build is never served by another. */
  readonly salt: string;
}

/** Per flow spec, in relPath order: what the manifest records, and the key of its check entry. */
export interface FlowKeys {
  /** The hash of everything the flow's output depends on (the manifest's `flows`). */
  readonly inputs: Readonly<Record<string, string>>;
  /** The cache entry saying this flowgen saw the flow pass the checks under the run's rules. */
  readonly checks: readonly string[];
}

/**
 * What a run and each file it renders depend on, as hashes: every key the render cache is asked
 * for and every hash the manifest records is made here, from the run's stamp, specs and rules.
 */
export interface RunKeys {
  readonly fingerprint: string;
  /** The whole run: when none of it changed, the previous run's files are the answer. */
  readonly run: string;
  /** The run's manifest file. */
  readonly manifest: string;
  /** Per flow spec: its inputs and its check entry. */
  hashFlows(): FlowKeys;
  /** The hash of a shared schema file's text, by relPath ("" for a file not among the specs). */
  sharedFile(relPath: string): string;
  /** What a file is rendered from, flowgen's code aside: the manifest records it. */
  fileInputs(...parts: readonly string[]): string;
  /** A file's inputs joined with its path, which decides its prettier options under the fingerprint's config. */
  joinFormatOptions(inputs: string, filePath: string): string;
  /** `inputs` and flowgen's code: the render cache's key of the file. */
  fileKey(inputs: string): string;
}

/**
 * The stamp of a run with these templates, prettier and settings.
 *
 * @example
 * const stamp = stampRun({ code, version, runtime, validation, formatter: formatter.fingerprint, settings: {} });
 */
export function stampRun(parts: FingerprintParts): RunStamp {
  const fingerprint = hashParts(
    parts.version,
    ...parts.runtime.flatMap((file) => [file.name, file.text]),
    parts.validation,
    parts.formatter,
    parts.settings.baseUrl ?? "",
    String(parts.settings.validators === true),
    String(parts.settings.moduleMarker === true),
  );
  return { fingerprint, salt: hashParts(parts.code, fingerprint) };
}

/**
 * The keys of a run of `sources` under `rules`.
 *
 * @example
 * const keys = createRunKeys(stamp, sources, options.rules);
 */
export function createRunKeys(
  stamp: RunStamp,
  sources: SpecSources,
  rules: Rules | undefined,
): RunKeys {
  const { fingerprint, salt } = stamp;
  // The rules decide what a check refuses: a run under other rules is another run.
  const rulesKey = JSON.stringify(Object.entries(rules ?? {}).sort());
  // Each flow's hash covers its text (read once: specs can be large); shared files, even those no flow reaches, are checked too.
  const sharedFile = sharedFileHashes(sources);
  const inputs = hashFlowInputs(fingerprint, sources, sharedFile);
  const run = `run:${hashParts(salt, rulesKey, ...Object.entries(inputs).flat(), "|", ...sources.shared.flatMap((s) => [s.relPath, s.text]))}`;
  return {
    fingerprint,
    run,
    manifest: hashParts(run, MANIFEST_PATH),
    hashFlows: () => {
      const checks = Object.values(inputs).map((hash) =>
        hashParts(salt, "checked", rulesKey, hash),
      );
      return { inputs, checks };
    },
    sharedFile,
    fileInputs: (...parts) => hashParts(fingerprint, ...parts),
    joinFormatOptions: (inputs, filePath) => hashParts(inputs, "format", filePath),
    fileKey: (inputs) => hashParts(salt, inputs),
  };
}

/** What a run's cache entry records: its files by cache key, the check entries it used, its warnings. */
export interface RunEntry {
  readonly flowCount: number;
  readonly files: readonly (readonly [path: string, key: string])[];
  readonly checked: readonly string[];
  readonly warnings: readonly Issue[];
}

/**
 * The files of the run whose key is `runKey`, when the cache holds it and every file it names.
 *
 * @example
 * const remembered = recallRun(cache, keys.run);
 */
export function recallRun(
  cache: RenderCache,
  runKey: string,
): { files: OutputFile[]; flowCount: number; warnings: Issue[] } | undefined {
  const entry = cache.get(runKey);
  if (entry === undefined) return undefined;
  const {
    flowCount,
    files,
    checked = [],
    warnings = [],
  } = JSON.parse(entry) as {
    flowCount: number;
    files: [string, string][];
    checked?: string[];
    warnings?: Issue[];
  };
  // Kept for the next run that changes one spec: the others need not be checked again.
  for (const key of checked) cache.get(key);
  const out: OutputFile[] = [];
  for (const [filePath, key] of files) {
    const content = cache.get(key);
    if (content === undefined) return undefined;
    out.push({ path: filePath, content });
  }
  return { files: out.sort((a, b) => compareText(a.path, b.path)), flowCount, warnings };
}

/**
 * Records a run under its key, for `recallRun`.
 *
 * @example
 * rememberRun(cache, keys.run, { flowCount, files, checked: flows.checks, warnings });
 */
export function rememberRun(cache: RenderCache, runKey: string, entry: RunEntry): void {
  cache.set(runKey, JSON.stringify(entry));
}

/**
 * Records that a flow passed the checks, with its warnings: a run that trusts it says them again.
 *
 * @example
 * rememberCheck(cache, flows.checks[0] ?? "", warnings);
 */
export function rememberCheck(cache: RenderCache, key: string, warnings: readonly Issue[]): void {
  cache.set(key, JSON.stringify(warnings));
}

/**
 * The warnings a check cache entry keeps (none for an entry that is not this machine's JSON).
 *
 * @example
 * const warnings = readCheckEntry(cache.get(flows.checks[0] ?? ""));
 */
export function readCheckEntry(entry: string | undefined): Issue[] {
  if (entry === undefined || entry === "") return [];
  try {
    const value: unknown = JSON.parse(entry);
    return Array.isArray(value) ? (value as Issue[]) : [];
  } catch {
    return [];
  }
}
