import { lstat, readFile, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { compareText, type Issue } from "../issues.js";
import { isPlainObject } from "../json-pointer.js";
import { parseDocument } from "../spec/parse-document.js";

/** One recorded call: what was sent, and what came back. */
export interface SamplePair {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly output: Record<string, unknown>;
}

export type SamplesResult =
  | { readonly ok: true; readonly samples: readonly SamplePair[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Sample files past this size are refused: a sample shows a shape, it is not a data set. */
const MAX_SAMPLE_BYTES = 16 * 1024 * 1024;
const PAIR_FILE = /^(.+)\.(input|output)\.json$/;

/**
 * Reads recorded calls in one of three forms:
 * - files: `inputs[i]` pairs with `outputs[i]` (`--from-sample a.json --from-sample-output a.out.json`, repeated);
 * - a folder (`inputs` is one folder, no outputs): `<name>.input.json` with `<name>.output.json`;
 * - JSON Lines (`inputs` is one `.jsonl` file, no outputs): one `{ "input", "output", "name"? }` per line.
 * Every sample must be a JSON object. All problems come back at once.
 *
 * @example
 * const read = await readSamples(cwd, ["recordings/"], []);
 */
export async function readSamples(
  cwd: string,
  inputs: readonly string[],
  outputs: readonly string[],
): Promise<SamplesResult> {
  const only = inputs[0];
  if (inputs.length === 1 && outputs.length === 0 && only !== undefined) {
    const file = path.resolve(cwd, only);
    const kind = await stat(file).then(
      (stats) => (stats.isDirectory() ? "folder" : "file"),
      () => "missing",
    );
    if (kind === "folder") return readRecordingFolder(cwd, file);
    // Before pairing: a path that is not there is the mistake to name, not the missing output.
    if (kind === "missing")
      return failed({
        code: "invalid-sample",
        file: display(cwd, file),
        message:
          "not found; check the path (a sample file with its --from-sample-output, a folder of recordings, or a .jsonl file)",
      });
    if (/\.(jsonl|ndjson)$/i.test(only)) return readJsonLines(cwd, file);
  }
  if (inputs.length === 0 || inputs.length !== outputs.length)
    return failed({
      code: "invalid-sample",
      file: "--from-sample",
      message: `${inputs.length} input sample${inputs.length === 1 ? "" : "s"} and ${outputs.length} output sample${outputs.length === 1 ? "" : "s"} do not pair up; give each --from-sample its --from-sample-output, or one folder of <name>.input.json and <name>.output.json files, or one .jsonl file of { "input": …, "output": … } lines`,
    });
  const issues: Issue[] = [];
  const samples: SamplePair[] = [];
  for (const [i, input] of inputs.entries()) {
    const output = outputs[i] ?? "";
    const read = await Promise.all([readSampleFile(cwd, input), readSampleFile(cwd, output)]);
    const [inputValue, outputValue] = read.map((one) => (one.ok ? one.value : undefined));
    for (const one of read) if (!one.ok) issues.push(...one.issues);
    if (inputValue !== undefined && outputValue !== undefined)
      samples.push({ name: sampleName(input), input: inputValue, output: outputValue });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, samples };
}

async function readRecordingFolder(cwd: string, folder: string): Promise<SamplesResult> {
  const issues: Issue[] = [];
  const halves = new Map<string, { input?: string; output?: string }>();
  const names = (await readdir(folder)).filter((name) => !name.startsWith(".")).sort(compareText);
  for (const name of names) {
    const file = path.join(folder, name);
    const problem = await checkFolderEntry(file, name, cwd);
    if (problem !== undefined) {
      issues.push({ code: "invalid-sample", file: display(cwd, file), message: problem });
      continue;
    }
    const [, stem = "", half] = PAIR_FILE.exec(name) ?? [];
    halves.set(stem, { ...halves.get(stem), [half === "input" ? "input" : "output"]: file });
  }
  const samples: SamplePair[] = [];
  for (const [stem, { input, output }] of halves) {
    if (input === undefined || output === undefined) {
      const has = input ?? output ?? "";
      issues.push({
        code: "invalid-sample",
        file: display(cwd, has),
        message: `has no ${input === undefined ? "input" : "output"} to pair with; add ${stem}.${input === undefined ? "input" : "output"}.json beside it, or remove it`,
      });
      continue;
    }
    const [inputValue, outputValue] = await Promise.all([
      readSampleFile(cwd, input),
      readSampleFile(cwd, output),
    ]);
    for (const one of [inputValue, outputValue]) if (!one.ok) issues.push(...one.issues);
    if (inputValue.ok && outputValue.ok)
      samples.push({ name: stem, input: inputValue.value, output: outputValue.value });
  }
  if (samples.length === 0 && issues.length === 0)
    issues.push({
      code: "invalid-sample",
      file: display(cwd, folder),
      message: "holds no recordings; add pairs of <name>.input.json and <name>.output.json",
    });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, samples };
}

/** Why a folder entry is not a recording half, or undefined when it is one. */
async function checkFolderEntry(
  file: string,
  name: string,
  cwd: string,
): Promise<string | undefined> {
  const stats = await lstat(file);
  if (stats.isSymbolicLink()) {
    const broken = await stat(file).then(
      () => false,
      () => true,
    );
    if (broken || (await leavesProject(file, cwd)))
      return "is a link leading out of the project (or nowhere); copy the recording into the folder instead";
  } else if (!stats.isFile()) return "is not a file; recordings sit directly in the folder";
  if (!PAIR_FILE.test(name))
    return "is not half of a recording; name recordings <name>.input.json and <name>.output.json";
  return undefined;
}

/**
 * Whether a path inside the project reaches, through a link anywhere along it, a file outside
 * the project. A path named outside the project is read as named: no link took it there.
 */
async function leavesProject(file: string, cwd: string): Promise<boolean> {
  if (isOutside(cwd, file)) return false;
  const [project, target] = await Promise.all([
    realpath(cwd),
    realpath(file).catch(() => undefined),
  ]);
  return target !== undefined && isOutside(project, target);
}

function isOutside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

async function readJsonLines(cwd: string, file: string): Promise<SamplesResult> {
  const text = await readText(cwd, file);
  if (!text.ok) return text;
  const shown = display(cwd, file);
  const issues: Issue[] = [];
  const samples: SamplePair[] = [];
  const lines = text.text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() !== "") readJsonLine(line, { file: shown, line: i + 1 }, samples, issues);
  }
  if (samples.length === 0 && issues.length === 0)
    issues.push({
      code: "invalid-sample",
      file: shown,
      message: 'holds no lines; write one { "input": …, "output": … } per line',
    });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, samples };
}

/** One line of a .jsonl file: `{ input, output }` and an optional name. */
interface RecordingLine {
  readonly name?: string;
  readonly input: Record<string, unknown>;
  readonly output: Record<string, unknown>;
}

/** Adds the recording on one line to `samples`, or what is wrong with it to `issues`. */
function readJsonLine(
  text: string,
  at: { readonly file: string; readonly line: number },
  samples: SamplePair[],
  issues: Issue[],
): void {
  const parsed = parseDocument(at.file, text);
  if (!parsed.ok) {
    issues.push(
      ...parsed.issues.map((issue) => ({ ...issue, ...at, code: "invalid-sample" as const })),
    );
    return;
  }
  const value = parsed.document.value;
  if (!isRecordingLine(value)) {
    issues.push({
      code: "invalid-sample",
      ...at,
      message:
        'must be { "input": { … }, "output": { … } } with an optional "name" string, and nothing else',
    });
    return;
  }
  const found = [
    ...findProtoKeys(value.input, "/input"),
    ...findProtoKeys(value.output, "/output"),
  ];
  issues.push(
    ...found.map((pointer) => ({
      code: "invalid-sample" as const,
      ...at,
      pointer,
      message: PROTO_MESSAGE,
    })),
  );
  if (found.length === 0)
    samples.push({
      name: value.name ?? `line ${at.line}`,
      input: value.input,
      output: value.output,
    });
}

function isRecordingLine(value: unknown): value is RecordingLine {
  if (!isPlainObject(value) || !isPlainObject(value.input) || !isPlainObject(value.output))
    return false;
  if (value.name !== undefined && typeof value.name !== "string") return false;
  return Object.keys(value).every((key) => key === "name" || key === "input" || key === "output");
}

const PROTO_MESSAGE =
  'a property named "__proto__" cannot be drafted (JavaScript gives that name a meaning of its own); rename it in the sample';

async function readSampleFile(
  cwd: string,
  name: string,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; issues: Issue[] }> {
  const file = path.resolve(cwd, name);
  const text = await readText(cwd, file);
  if (!text.ok) return text;
  const shown = display(cwd, file);
  // Parsed as JSON whatever the file is called: parseDocument picks YAML by extension.
  const parsed = parseDocument("sample.json", text.text);
  if (!parsed.ok)
    return {
      ok: false,
      issues: parsed.issues.map((issue) => ({ ...issue, file: shown, code: "invalid-sample" })),
    };
  const { value } = parsed.document;
  if (!isPlainObject(value))
    return {
      ok: false,
      issues: [
        {
          code: "invalid-sample",
          file: shown,
          message: "is not a JSON object; a flow's input and output are objects ({ … })",
        },
      ],
    };
  const found = findProtoKeys(value, "");
  if (found.length > 0)
    return {
      ok: false,
      issues: found.map((pointer) => ({
        code: "invalid-sample",
        file: shown,
        pointer,
        ...parsed.document.locate(pointer),
        message: PROTO_MESSAGE,
      })),
    };
  return { ok: true, value };
}

async function readText(
  cwd: string,
  file: string,
): Promise<{ ok: true; text: string } | { ok: false; issues: Issue[] }> {
  const fail = (message: string) => ({
    ok: false as const,
    issues: [{ code: "invalid-sample" as const, file: display(cwd, file), message }],
  });
  if (await leavesProject(file, cwd))
    return fail(
      "leads out of the project through a link; name the file where it is, or copy it into the project",
    );
  try {
    const buffer = await readFile(file);
    if (buffer.byteLength > MAX_SAMPLE_BYTES)
      return fail(
        `is larger than ${MAX_SAMPLE_BYTES} bytes; a few representative calls are enough`,
      );
    return { ok: true, text: buffer.toString("utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return fail(
      code === "ENOENT"
        ? "not found; check the path"
        : `cannot be read (${code}); check its permissions`,
    );
  }
}

/** Pointers to every property named `__proto__`, depth-first (values were depth-checked when parsed). */
function findProtoKeys(value: unknown, pointer: string): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => findProtoKeys(item, `${pointer}/${i}`));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(key === "__proto__" ? [`${pointer}/__proto__`] : []),
    ...findProtoKeys(item, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`),
  ]);
}

function sampleName(file: string): string {
  return path.basename(file).replace(/(\.input)?\.json$/i, "");
}

function display(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/") || ".";
}

function failed(issue: Issue): SamplesResult {
  return { ok: false, issues: [issue] };
}
