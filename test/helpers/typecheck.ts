import { access, cp, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { readRuntimeTemplates } from "../../src/runtime-templates.js";
import { REPO_ROOT } from "./temp-dir.js";

/** The project shapes generated code must compile in: the name says what differs from the strict NodeNext default. */
export type ProjectShape =
  "NodeNext" | "Bundler" | "not-strict" | "node-no-dom" | "node16-commonjs";

const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
};

const SHAPES: Record<
  ProjectShape,
  { packageType: "module" | "commonjs"; compilerOptions: Record<string, unknown> }
> = {
  NodeNext: {
    packageType: "module",
    compilerOptions: {
      ...STRICT,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      types: ["node"],
    },
  },
  Bundler: {
    packageType: "module",
    compilerOptions: {
      ...STRICT,
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022", "DOM"],
      types: [],
    },
  },
  "not-strict": {
    packageType: "module",
    compilerOptions: {
      strict: false,
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022", "DOM"],
      types: [],
    },
  },
  // A server project: Node's own fetch types and no DOM (no `document`, no `window`).
  "node-no-dom": {
    packageType: "module",
    compilerOptions: {
      ...STRICT,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022"],
      types: ["node"],
    },
  },
  // The generated files compile to CommonJS there; verbatimModuleSyntax forbids that, so such projects leave it off.
  "node16-commonjs": {
    packageType: "commonjs",
    compilerOptions: {
      ...STRICT,
      verbatimModuleSyntax: false,
      module: "Node16",
      moduleResolution: "Node16",
      lib: ["ES2022"],
      types: ["node"],
    },
  },
};

/**
 * Type-checks a generated tree plus a consumer file in one of the project shapes users have.
 * A tree without the runtime (golden trees leave it out) gets flowgen's own copy. Returns the
 * compiler's messages; empty when it passed.
 */
export async function typecheck(
  dir: string,
  generated: string,
  consumer: string,
  shape: ProjectShape,
): Promise<string> {
  const gen = path.join(dir, "gen");
  await cp(generated, gen, { recursive: true });
  const ownRuntime = !(await access(path.join(gen, "runtime/index.ts")).then(
    () => true,
    () => false,
  ));
  if (ownRuntime) {
    await mkdir(path.join(gen, "runtime"), { recursive: true });
    for (const file of await readRuntimeTemplates())
      await writeFile(path.join(gen, "runtime", file.name), file.text);
  }
  await symlink(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir").catch(
    () => undefined,
  );
  const { packageType, compilerOptions } = SHAPES[shape];
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: packageType }));
  await writeFile(path.join(dir, "consumer.ts"), consumer);
  const config = {
    compilerOptions: { ...compilerOptions, target: "ES2022", noEmit: true, skipLibCheck: true },
    include: ["consumer.ts", "gen/**/*.ts"],
  };
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  // flowgen's own runtime, added here, is checked as a generated tree's in every shape by
  // consumer-tsconfig.test.ts: here it is only what the tree's own files are checked against.
  const runtime = `${path.join(gen, "runtime")}${path.sep}`;
  return compile(
    path.join(dir, "tsconfig.json"),
    (file) => !ownRuntime || !file.startsWith(runtime),
  );
}

/**
 * Compiles the project `typecheck` set up in `dir` to JavaScript in `dir/out`, as the shape's
 * module setting says (CommonJS for "node16-commonjs"); returns the compiler's messages.
 */
export function emitProject(dir: string): string {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, "tsconfig.json"),
    { noEmit: false, outDir: path.join(dir, "out") },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) return `cannot read ${dir}/tsconfig.json`;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => "\n",
  };
  return ts.formatDiagnostics(program.emit().diagnostics, host);
}

/**
 * tsc -p, in this process: the same checks without starting a process per shape. Files for which
 * `checked` says false are parsed and read for their types, and only their syntax is checked.
 */
function compile(configPath: string, checked: (file: string) => boolean): string {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) return `cannot read ${configPath}`;
  return compileFiles(parsed.fileNames, parsed.options, parsed.errors, checked);
}

/**
 * Type-checks `rootNames` with `options` in this process; returns the compiler's messages, empty
 * when it passed. Type-level tests (`expectTypeOf`, `@ts-expect-error`) fail here, not in vitest.
 * Only files `checked` accepts get semantic checks (tsc's own diagnostics, as `tsc --noEmit`
 * reports them, when it accepts all).
 */
export function compileFiles(
  rootNames: readonly string[],
  options: ts.CompilerOptions,
  extra: readonly ts.Diagnostic[] = [],
  checked: (file: string) => boolean = () => true,
): string {
  const program = ts.createProgram({ rootNames, options, host: cachingHost(options) });
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => REPO_ROOT,
    getNewLine: () => "\n",
  };
  return ts.formatDiagnostics([...extra, ...diagnosticsOf(program, checked)], host);
}

/** `ts.getPreEmitDiagnostics`, with semantic checks only for the files `checked` accepts. */
function diagnosticsOf(program: ts.Program, checked: (file: string) => boolean): ts.Diagnostic[] {
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  for (const file of program.getSourceFiles())
    if (checked(file.fileName)) diagnostics.push(...program.getSemanticDiagnostics(file));
  return [...ts.sortAndDeduplicateDiagnostics(diagnostics)];
}

/**
 * Parsed declaration files under node_modules (TypeScript's libs, @types/node, openapi-fetch),
 * kept across the compiles of one test file: they never change during a run, and parsing them
 * is most of what a small compile costs. Keyed by how each was parsed (language version, module format).
 */
const parsedDeclarations = new Map<string, ts.SourceFile>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (!fileName.includes("/node_modules/") || !fileName.endsWith(".d.ts"))
      return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
    let file = parsedDeclarations.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file !== undefined) parsedDeclarations.set(key, file);
    }
    return file;
  };
  return host;
}
