import type { Ajv2020 } from "ajv/dist/2020.js";
import { triageIssues, type Issue, type Rules } from "../issues.js";
import { isPlainObject } from "../json-pointer.js";
import { FLOW_SPEC_SCHEMA, JSON_SCHEMA_2020_12, createAjv } from "./ajv.js";
import { checkAllExamples } from "./check-examples.js";
import { checkSchemaValues } from "./check-schema-values.js";
import { findRefCycles } from "./ref-cycles.js";
import { readNullable } from "./nullable.js";
import { checkObjectRoot } from "./object-root.js";
import { looksLikeSpec, notASpecIssue, opensLike } from "./spec-shape.js";
import { describeAjvErrors } from "./describe-ajv-errors.js";
import { parseDocument, type ParsedDocument } from "./parse-document.js";
import {
  readSpecFiles,
  type FlowSource,
  type SpecSource,
  type SpecSources,
} from "./read-spec-files.js";
import { checkSchemaResource, type SchemaFinding, type SpecIndex } from "./schema-refs.js";

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

/** `warnings`: problems whose rule says warn, found in the files checked (each run reports them again). */
export type LoadResult =
  | { readonly ok: true; readonly specs: SpecSet; readonly warnings: readonly Issue[] }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      readonly warnings: readonly Issue[];
    };

const SPEC_KEYS = Object.keys(FLOW_SPEC_SCHEMA.properties as object);
const EXAMPLE_KEYS = ["name", "input", "output"];

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
  /** Severities the project chose (the config file's `rules`); defaults for the rest. */
  readonly rules?: Rules | undefined;
}

/**
 * The checks of `loadSpecs`, on files already read.
 *
 * @example
 * const result = checkSpecs(await readSpecFiles("specs"), { trusted: new Set(["@acme/qa.json"]) });
 */
export function checkSpecs(sources: SpecSources, options: CheckOptions = {}): LoadResult {
  const trusted = options.trusted ?? new Set<string>();
  const issues: Issue[] = [...sources.issues];
  const warnings: Issue[] = [];
  /** Adds what the rules make errors to `issues` and warnings to `warnings`; returns the errors. */
  const report = (found: readonly Issue[]): Issue[] => {
    const triaged = triageIssues(found, options.rules);
    issues.push(...triaged.errors);
    warnings.push(...triaged.warnings);
    return triaged.errors;
  };
  const documents = new Map<string, { source: SpecSource; document: ParsedDocument }>();
  const brokenFiles = new Set<string>();
  const flowFiles = new Set(sources.flows.map((flow) => flow.relPath));
  for (const source of [...sources.flows, ...sources.shared]) {
    const kind = flowFiles.has(source.relPath) ? "flow" : "shared";
    const parsed = parseDocument(source.displayPath, source.text, {
      quotable: (firstKey) => opensLike(kind, firstKey, SPEC_KEYS),
    });
    if (parsed.ok && !looksLikeSpec(kind, parsed.document.value, SPEC_KEYS)) {
      brokenFiles.add(source.relPath);
      issues.push(notASpecIssue(kind, source.displayPath, SPEC_KEYS));
    } else if (parsed.ok) {
      const value = readNullable(parsed.document.value, kind);
      documents.set(source.relPath, { source, document: { ...parsed.document, value } });
    } else {
      brokenFiles.add(source.relPath);
      issues.push(...parsed.issues);
    }
  }
  const index: SpecIndex = {
    files: new Map([...documents].map(([relPath, { document }]) => [relPath, document.value])),
    flowFiles,
    brokenFiles,
  };
  const locateIn =
    (relPath: string) =>
    (finding: { code: Issue["code"]; pointer: string; message: string }): Issue => {
      const entry = documents.get(relPath);
      return {
        code: finding.code,
        file: entry?.source.displayPath ?? relPath,
        pointer: finding.pointer,
        ...entry?.document.locate(finding.pointer),
        message: finding.message,
      };
    };
  const fromSchemaFinding = (finding: SchemaFinding): Issue => locateIn(finding.relPath)(finding);

  const ajv = createAjv();
  const validateSpecFile = ajv.compile(FLOW_SPEC_SCHEMA);
  const flows: FlowSpec[] = [];
  const badFiles = new Set<string>();
  for (const source of sources.flows) {
    const entry = documents.get(source.relPath);
    if (entry === undefined) continue;
    if (trusted.has(source.relPath)) {
      flows.push(toFlowSpec(source, entry.document.value as Record<string, unknown>));
      continue;
    }
    const found = checkFlowFile(entry.document.value, source, validateSpecFile, index);
    const errors = report(found.map(locateIn(source.relPath)));
    if (errors.length > 0) badFiles.add(source.relPath);
    else flows.push(toFlowSpec(source, entry.document.value as Record<string, unknown>));
  }
  for (const source of sources.shared) {
    const value = index.files.get(source.relPath);
    if (value === undefined) continue;
    const found = checkSharedFile(value, source.relPath, ajv, index);
    const errors = report(found.map(locateIn(source.relPath)));
    if (errors.length > 0) badFiles.add(source.relPath);
  }
  // Values are checked against schemas (examples, enums, defaults) for the flows whose schemas are
  // sound, and only once every shared file is: Ajv compiles whatever a `$ref` reaches, and would
  // recurse forever on a cycle that never steps into the data.
  if (
    sources.shared.every(
      (source) => !badFiles.has(source.relPath) && !brokenFiles.has(source.relPath),
    )
  ) {
    const checkedFlows = flows.filter((flow) => !trusted.has(flow.relPath));
    const roots = [
      ...checkedFlows.flatMap((flow) =>
        ["/input", "/output"].map((root) => ({ relPath: flow.relPath, root })),
      ),
      ...sources.shared.map((source) => ({ relPath: source.relPath, root: "" })),
    ];
    const cycles = findRefCycles(index, roots);
    issues.push(...cycles.map(fromSchemaFinding));
    if (cycles.length > 0) return { ok: false, issues, warnings };
    // Each value and example validator runs a few times at most: compiled without Ajv's optimizing pass, which costs more than it saves then (bench/NOTES.md).
    report(checkSchemaValues(createAjv({ optimize: false }), roots, index).map(fromSchemaFinding));
    report(checkAllExamples(checkedFlows, index).map(fromSchemaFinding));
  }
  return issues.length > 0
    ? { ok: false, issues, warnings }
    : { ok: true, specs: { flows, index }, warnings };
}

type Finding = { code: Issue["code"]; pointer: string; message: string };

function checkFlowFile(
  value: unknown,
  source: FlowSource,
  validate: ReturnType<Ajv2020["compile"]>,
  index: SpecIndex,
): Finding[] {
  const findings: Finding[] = [];
  if (!validate(value)) {
    findings.push(
      ...describeAjvErrors(validate.errors ?? [], value, {
        schemaCode: "invalid-schema",
        isSchemaPath: (p) => /^\/(input|output)(\/|$)/.test(p),
        allowedKeys: (p) => (p === "" ? SPEC_KEYS : EXAMPLE_KEYS),
      }),
    );
  }
  if (!isPlainObject(value)) return findings;
  const id = `@${source.org}/${source.name}`;
  if (typeof value.id === "string" && value.id !== id) {
    findings.push({
      code: "id-mismatch",
      pointer: "/id",
      message: `id "${value.id}" differs from ${id}, the id this file's path gives; change the id, or move the file to ${id}.json`,
    });
  }
  for (const part of ["input", "output"] as const) {
    if (!isPlainObject(value[part])) continue;
    const resource = { relPath: source.relPath, root: `/${part}` };
    const { findings: schemaFindings } = checkSchemaResource(resource, index);
    findings.push(...checkSchemaDialect(value[part], `/${part}`), ...schemaFindings);
    if (schemaFindings.length === 0) findings.push(...checkObjectRoot(part, resource, index));
  }
  return findings;
}

function checkSharedFile(
  value: unknown,
  relPath: string,
  ajv: Ajv2020,
  index: SpecIndex,
): Finding[] {
  const dialect = checkSchemaDialect(value, "");
  if (dialect.length > 0) return dialect;
  const schema = isPlainObject(value) ? { ...value, $schema: undefined } : value;
  if (!ajv.validateSchema(schema as object)) {
    return describeAjvErrors(ajv.errors ?? [], value, {
      schemaCode: "invalid-schema",
      isSchemaPath: () => true,
    });
  }
  return checkSchemaResource({ relPath, root: "" }, index).findings;
}

function checkSchemaDialect(schema: unknown, pointer: string): Finding[] {
  const dialect = isPlainObject(schema) ? schema.$schema : undefined;
  if (
    dialect === undefined ||
    dialect === JSON_SCHEMA_2020_12 ||
    dialect === `${JSON_SCHEMA_2020_12}#`
  )
    return [];
  return [
    {
      code: "invalid-schema",
      pointer: `${pointer}/$schema`,
      message: `flowgen reads JSON Schema 2020-12; set "$schema" to "${JSON_SCHEMA_2020_12}" or remove it`,
    },
  ];
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
