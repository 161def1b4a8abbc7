import { triageIssues, type Issue, type Rules } from "../issues.js";
import { SPEC_FILE_VALIDATORS, type SpecFileValidators } from "./spec-file-validators.js";
import { checkAllExamples, type ExamplesTask } from "./check-examples.js";
import { checkFlowValues, checkSharedValues } from "./value-checks.js";
import { findRefCycles } from "./ref-cycles.js";
import { filesReaching } from "./ref-reach.js";
import { readNullable } from "./nullable.js";
import { looksLikeSpec, notASpecIssue, opensLike } from "./spec-shape.js";
import { holdsKeyEscape } from "./key-escape.js";
import { parseDocument, type ParsedDocument } from "./parse-document.js";
import {
  readSpecFiles,
  type FlowSource,
  type SpecSource,
  type SpecSources,
} from "./read-spec-files.js";
import type { RefTarget, SchemaFinding, SpecIndex } from "./schema-refs.js";
import { checkFlowFile, checkSharedFile, SPEC_KEYS, type Finding } from "./check-spec-files.js";

/** One flow's spec, read and checked. Schemas are still as the user wrote them. */
export interface FlowSpec {
  readonly id: string;
  readonly org: string;
  readonly name: string;
  readonly relPath: string;
  readonly displayPath: string;
  readonly summary: string | undefined;
  readonly description: string | undefined;
  readonly deprecated: boolean;
  readonly input: Record<string, unknown>;
  readonly output: Record<string, unknown>;
  readonly examples: readonly {
    readonly name?: string;
    readonly input: unknown;
    readonly output: unknown;
  }[];
}

/** Every flow plus the parsed value of every file, for `$ref` resolution downstream. */
export interface SpecSet {
  readonly flows: readonly FlowSpec[];
  readonly index: SpecIndex;
}

/**
 * Value checks left for later (`deferChecks`): `check` makes them on this thread, once, and gives
 * their problems sorted by the rules.
 */
export interface DeferredValues {
  check(): { readonly errors: readonly Issue[]; readonly warnings: readonly Issue[] };
}

/**
 * Example checks left for later (`deferChecks`): the tasks, which another thread can run, and
 * what their findings are as problems of the files they are in, sorted by the rules.
 */
export interface DeferredExamples {
  /** In tasks of a bounded number of flows: each parses its files again, and holds them only while it runs. */
  readonly tasks: readonly ExamplesTask[];
  place(findings: readonly SchemaFinding[]): { errors: Issue[]; warnings: Issue[] };
}

/**
 * `warnings`: problems whose rule says warn, found in the files checked (each run reports them
 * again). `values` and `examples`: the checks still to make, when deferred.
 */
export type LoadResult =
  | {
      readonly ok: true;
      readonly specs: SpecSet;
      readonly warnings: readonly Issue[];
      readonly values?: DeferredValues | undefined;
      readonly examples?: DeferredExamples | undefined;
    }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      readonly warnings: readonly Issue[];
    };

/**
 * Reads the specs folder and checks everything at once: syntax, file layout and names, spec keys,
 * schemas against the 2020-12 meta-schema, keywords, `$ref` targets, root object types and examples.
 *
 * @example
 * const result = await loadSpecs("specs");
 * if (!result.ok) for (const issue of result.issues) console.error(formatIssue(issue));
 */
export async function loadSpecs(specsDir: string, cwd = process.cwd()): Promise<LoadResult> {
  return checkSpecs(await readSpecFiles(specsDir, cwd));
}

export interface CheckOptions {
  /**
   * Flow specs (relPaths) to trust: this flowgen checked them, with every file they reach as it is
   * now, when it wrote the output (the output manifest records that). They are parsed, since the
   * model needs them, and take part in the checks across files (names, shared files); their own
   * checks (spec keys, schemas, `$ref`s, root types, values, examples, cycles) are skipped.
   */
  readonly trusted?: ReadonlySet<string> | undefined;
  /**
   * Of the trusted specs, those this machine's render cache saw pass, with the text they have
   * now: JSON is parsed without looking for repeated keys or values nested too deep again. A
   * manifest is the word of whoever committed it, so its flows get those checks.
   */
  readonly parsedBefore?: ReadonlySet<string> | undefined;
  /** Severities the project chose (the config file's `rules`); defaults for the rest. */
  readonly rules?: Rules | undefined;
  /**
   * Leave the costly checks to the caller when everything else passes: those of the values in the
   * flows' schemas (`enum`, `const`, `default`, `examples`: `LoadResult.values`), which a run makes
   * once this thread has nothing else to do while worker threads render, and those of the flows'
   * examples (`LoadResult.examples`), which it hands to a worker thread at once. When anything else
   * fails they are made here, so that every problem is reported at once. Default false.
   */
  readonly deferChecks?: boolean | undefined;
}

/**
 * The checks of `loadSpecs`, on files already read.
 *
 * @example
 * const result = checkSpecs(await readSpecFiles("specs"), { trusted: new Set(["@acme/qa.json"]) });
 */
export function checkSpecs(sources: SpecSources, options: CheckOptions = {}): LoadResult {
  const checking = parseSources(sources, options);
  const flows = checkFlowFiles(checking, sources.flows, SPEC_FILE_VALIDATORS);
  checkSharedFiles(checking, sources.shared, SPEC_FILE_VALIDATORS);
  checkValues(checking, flows, sources.shared);
  const { index, issues, warnings, pendingValues, pendingExamples } = checking;
  if (issues.length > 0) {
    if (pendingValues !== undefined) report(checking, pendingValues());
    pendingExamples?.();
    return { ok: false, issues, warnings };
  }
  const values = pendingValues && deferredValues(pendingValues, checking.rules);
  const examples = pendingExamples && deferredExamples(checking, flows, sources.shared);
  return { ok: true, specs: { flows, index }, warnings, values, examples };
}

/** Value checks to make later, once: their problems are kept, and the specs they read let go. */
function deferredValues(pending: () => Issue[], rules: Rules | undefined): DeferredValues {
  let left: (() => Issue[]) | undefined = pending;
  let checked: ReturnType<DeferredValues["check"]> | undefined;
  return {
    check: () => {
      checked ??= triageIssues(left?.() ?? [], rules);
      left = undefined;
      return checked;
    },
  };
}

/** Flows per example task: the files one parses are held while it runs. */
const EXAMPLES_PER_TASK = 100;

/** The example checks of the flows checked here, as tasks with the texts they read. */
function deferredExamples(
  checking: Checking,
  flows: readonly FlowSpec[],
  shared: readonly SpecSource[],
): DeferredExamples | undefined {
  const text = (relPath: string) => checking.documents.get(relPath)?.source.text ?? "";
  const checked = flows.filter(
    (flow) => !checking.trusted.has(flow.relPath) && flow.examples.length > 0,
  );
  if (checked.length === 0) return undefined;
  const sharedTexts = shared.map(({ relPath }) => ({ relPath, text: text(relPath) }));
  const tasks: ExamplesTask[] = [];
  for (let i = 0; i < checked.length; i += EXAMPLES_PER_TASK)
    tasks.push({
      stage: "examples",
      flows: checked
        .slice(i, i + EXAMPLES_PER_TASK)
        .map(({ relPath }) => ({ relPath, text: text(relPath) })),
      shared: sharedTexts,
    });
  return {
    tasks,
    place: placer(checking, [
      ...checked.map((flow) => flow.relPath),
      ...shared.map((s) => s.relPath),
    ]),
  };
}

/**
 * Places findings in the files at `relPaths` as `locateIn` does, keeping only each file's display
 * path and locator: not the parsed values, which a run need not hold while the examples are checked.
 */
function placer(checking: Checking, relPaths: readonly string[]): DeferredExamples["place"] {
  const places = new Map(relPaths.map((relPath) => [relPath, whereIs(checking, relPath)]));
  const { rules } = checking;
  return (findings) =>
    triageIssues(
      findings.map((finding) =>
        placeFinding(
          places.get(finding.relPath) ?? { file: finding.relPath, locate: undefined },
          finding,
        ),
      ),
      rules,
    );
}

/** What one `checkSpecs` call has parsed and found so far. */
interface Checking {
  readonly deferChecks: boolean;
  readonly trusted: ReadonlySet<string>;
  readonly rules: Rules | undefined;
  readonly documents: ReadonlyMap<string, { source: SpecSource; document: ParsedDocument }>;
  readonly index: SpecIndex;
  readonly issues: Issue[];
  readonly warnings: Issue[];
  /** Files a check found errors in: their values are not checked. */
  readonly badFiles: Set<string>;
  /** Where the `$ref`s of the files checked lead: `findRefCycles` starts there too. */
  readonly refTargets: RefTarget[];
  /** Flows refused for problems outside their schemas: their schemas' values are checked too. */
  readonly soundSchemas: string[];
  /** With `deferChecks`: the checks of the flows' values, when the checks got to them. */
  pendingValues?: () => Issue[];
  /** With `deferChecks`: the example checks, when the checks got to them. */
  pendingExamples?: () => void;
}

/** Parses every file; one that does not parse, or is not a spec, is broken and reported. */
function parseSources(sources: SpecSources, options: CheckOptions): Checking {
  const issues: Issue[] = [...sources.issues];
  const documents = new Map<string, { source: SpecSource; document: ParsedDocument }>();
  const brokenFiles = new Set<string>();
  const flowFiles = new Set(sources.flows.map((flow) => flow.relPath));
  for (const source of [...sources.flows, ...sources.shared]) {
    const kind = flowFiles.has(source.relPath) ? "flow" : "shared";
    const parsed = parseDocument(source.displayPath, source.text, {
      quotable: (firstKey) => opensLike(kind, firstKey, SPEC_KEYS),
      checked: options.parsedBefore?.has(source.relPath),
    });
    const parseIssues = parsed.ok ? [] : parsed.issues;
    const { document } = parsed;
    if (document === undefined) {
      brokenFiles.add(source.relPath);
      issues.push(...parseIssues);
      continue;
    }
    if (!looksLikeSpec(kind, document.value, SPEC_KEYS)) {
      brokenFiles.add(source.relPath);
      issues.push(notASpecIssue(kind, source.displayPath, SPEC_KEYS));
      continue;
    }
    // A problem that leaves a value (a key written twice) is reported, and the value checked too.
    issues.push(...parseIssues);
    const value = mayNameNullable(source.text)
      ? readNullable(document.value, kind)
      : document.value;
    documents.set(source.relPath, { source, document: { ...document, value } });
  }
  const files = new Map([...documents].map(([relPath, { document }]) => [relPath, document.value]));
  return {
    deferChecks: options.deferChecks === true,
    trusted: options.trusted ?? new Set<string>(),
    rules: options.rules,
    documents,
    index: { files, flowFiles, brokenFiles },
    issues,
    warnings: [],
    badFiles: new Set(),
    refTargets: [],
    soundSchemas: [],
  };
}

/** Adds what the rules make errors to `issues` and warnings to `warnings`; returns the errors. */
function report(checking: Checking, found: readonly Issue[]): Issue[] {
  const triaged = triageIssues(found, checking.rules);
  checking.issues.push(...triaged.errors);
  checking.warnings.push(...triaged.warnings);
  return triaged.errors;
}

/** A finding in the file at `relPath`, with its line and column. */
function locateIn(checking: Checking, relPath: string): (finding: Finding) => Issue {
  return (finding) => placeFinding(whereIs(checking, relPath), finding);
}

/** Where findings in the file at `relPath` are shown: its display path, and its locator. */
interface FilePlace {
  readonly file: string;
  readonly locate: ParsedDocument["locate"] | undefined;
}

function whereIs(checking: Checking, relPath: string): FilePlace {
  const entry = checking.documents.get(relPath);
  return { file: entry?.source.displayPath ?? relPath, locate: entry?.document.locate };
}

function placeFinding(place: FilePlace, finding: Finding): Issue {
  return {
    code: finding.code,
    file: place.file,
    pointer: finding.pointer,
    ...place.locate?.(finding.pointer),
    message: finding.message,
  };
}

/** The flows that parsed and are trusted or pass their own checks. */
function checkFlowFiles(
  checking: Checking,
  sources: readonly FlowSource[],
  validators: SpecFileValidators,
): FlowSpec[] {
  const flows: FlowSpec[] = [];
  for (const source of sources) {
    const entry = checking.documents.get(source.relPath);
    if (entry === undefined) continue;
    const spec = entry.document.value as Record<string, unknown>;
    if (checking.trusted.has(source.relPath)) {
      flows.push(toFlowSpec(source, spec));
      continue;
    }
    const found = checkFlowFile(
      entry.document.value,
      source,
      validators.flowFile,
      checking.index,
      checking.refTargets,
    );
    const errors = report(checking, found.map(locateIn(checking, source.relPath)));
    if (errors.length === 0) flows.push(toFlowSpec(source, spec));
    else {
      checking.badFiles.add(source.relPath);
      // Problems outside the schemas (an example's shape, the id) leave them sound: their values
      // are checked all the same, so that every problem shows in one run.
      if (errors.every((error) => !inSchemas(error.pointer)))
        checking.soundSchemas.push(source.relPath);
    }
  }
  return flows;
}

/** Whether a problem lies in a flow's input or output schema (or in the whole file). */
function inSchemas(pointer: string | undefined): boolean {
  return pointer === undefined || pointer === "" || /^\/(?:input|output)(?:\/|$)/.test(pointer);
}

function checkSharedFiles(
  checking: Checking,
  sources: readonly SpecSource[],
  validators: SpecFileValidators,
): void {
  for (const source of sources) {
    const value = checking.index.files.get(source.relPath);
    if (value === undefined) continue;
    const found = checkSharedFile(
      value,
      source.relPath,
      validators.metaSchema,
      checking.index,
      checking.refTargets,
    );
    const errors = report(checking, found.map(locateIn(checking, source.relPath)));
    if (errors.length > 0) checking.badFiles.add(source.relPath);
  }
}

/**
 * `$ref` cycles, then enums, defaults and examples against their schemas: the shared files', and
 * the flows' (not trusted ones') here or, deferred, later. Values are checked for the flows whose
 * schemas are sound, and the shared files that are: of those, only where no `$ref` leads to a
 * file that does not parse, breaks its checks or holds a cycle (`filesReaching`), since Ajv
 * compiles whatever a `$ref` reaches and would recurse forever on a cycle that never steps into
 * the data.
 */
function checkValues(
  checking: Checking,
  flows: readonly FlowSpec[],
  shared: readonly SpecSource[],
): void {
  const fromSchemaFinding = (finding: SchemaFinding): Issue =>
    locateIn(checking, finding.relPath)(finding);
  const { index, badFiles } = checking;
  const sharedPaths = shared.map((source) => source.relPath);
  const unsound = sharedPaths.filter((p) => badFiles.has(p) || index.brokenFiles.has(p));
  const checkedFlows = flows.filter((flow) => !checking.trusted.has(flow.relPath));
  const checkedPaths = [...checkedFlows.map((flow) => flow.relPath), ...checking.soundSchemas];
  const roots = [
    ...checkedPaths.flatMap((relPath) => ["/input", "/output"].map((root) => ({ relPath, root }))),
    ...sharedPaths.filter((p) => !unsound.includes(p)).map((relPath) => ({ relPath, root: "" })),
  ];
  const cycles = findRefCycles(index, roots, checking.refTargets);
  checking.issues.push(...cycles.map(fromSchemaFinding));
  const waiting = new Set([...unsound, ...cycles.map((cycle) => cycle.relPath)]);
  const sound = valueIndex(index, waiting.size === 0 ? waiting : filesReaching(index, waiting));
  const soundPaths = (relPaths: readonly string[]) => relPaths.filter((p) => sound.files.has(p));
  report(checking, checkSharedValues(soundPaths(sharedPaths), sound).map(fromSchemaFinding));
  const flowValues = () => checkFlowValues(soundPaths(checkedPaths), sound).map(fromSchemaFinding);
  const soundFlows = checkedFlows.filter((flow) => sound.files.has(flow.relPath));
  const examples = () =>
    report(checking, checkAllExamples(soundFlows, sound).map(fromSchemaFinding));
  if (checking.deferChecks) {
    checking.pendingValues = flowValues;
    checking.pendingExamples = examples;
  } else {
    report(checking, flowValues());
    examples();
  }
}

/** The index without the files in `left`: what the value checks may read. */
function valueIndex(index: SpecIndex, left: ReadonlySet<string>): SpecIndex {
  if (left.size === 0) return index;
  const files = new Map([...index.files].filter(([relPath]) => !left.has(relPath)));
  return { ...index, files };
}

/**
 * Whether a `nullable` key can be in the file: its text holds the word, or an escape that could
 * spell it (`holdsKeyEscape`). Walking every schema of every file for the key costs more than this
 * look at the text.
 */
function mayNameNullable(text: string): boolean {
  return text.includes("nullable") || holdsKeyEscape(text);
}

function toFlowSpec(source: FlowSource, spec: Record<string, unknown>): FlowSpec {
  return {
    id: `@${source.org}/${source.name}`,
    org: source.org,
    name: source.name,
    relPath: source.relPath,
    displayPath: source.displayPath,
    summary: typeof spec.summary === "string" ? spec.summary : undefined,
    description: typeof spec.description === "string" ? spec.description : undefined,
    deprecated: spec.deprecated === true,
    input: spec.input as Record<string, unknown>,
    output: spec.output as Record<string, unknown>,
    examples: Array.isArray(spec.examples) ? (spec.examples as FlowSpec["examples"]) : [],
  };
}
