import { access, cp, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { readRuntimeTemplates } from "../../src/runtime-templates.js";
import { REPO_ROOT } from "./temp-dir.js";

/** The project shapes generated code must compile in: the name says what differs from the strict NodeNext default. */
export type ProjectShape =
  | "NodeNext"
  | "Bundler"
  | "not-strict"
  | "node-no-dom"
  | "node16-commonjs"
  | "vite-es2020"
  | "tsc-init-es2016"
  | "isolated-declarations";

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
  // Vite's React template: the ES2020 library, the DOM, Bundler resolution.
  "vite-es2020": {
    packageType: "module",
    compilerOptions: {
      ...STRICT,
      target: "ES2020",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2020", "DOM", "DOM.Iterable"],
      types: [],
    },
  },
  // What `tsc --init` wrote before TypeScript 5.9: target ES2016, CommonJS; Node's types bring
  // the ES2020 library, which the runtime needs.
  "tsc-init-es2016": {
    packageType: "commonjs",
    compilerOptions: {
      strict: true,
      target: "ES2016",
      module: "commonjs",
      esModuleInterop: true,
      forceConsistentCasingInFileNames: true,
      types: ["node"],
    },
  },
  // A library that publishes declarations made file by file (by tsc, or by a faster tool).
  "isolated-declarations": {
    packageType: "module",
    compilerOptions: {
      ...STRICT,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      types: ["node"],
      declaration: true,
      isolatedDeclarations: true,
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
  const ownRuntime = !(await access(path.join(generated, "runtime/index.ts")).then(
    () => true,
    () => false,
  ));
  const config = await setUpProject(dir, generated, consumer, shape);
  // flowgen's own runtime, added to a tree that leaves it out, is checked as a generated tree's in
  // every shape by consumer-tsconfig.test.ts: here it is only what the tree's own files are checked against.
  const runtime = `${path.join(dir, "gen", "runtime")}${path.sep}`;
  return compileProject(config, {}, (file) => !ownRuntime || !file.startsWith(runtime));
}

/**
 * Sets up in `dir` the project `typecheck` compiles: the generated tree in `gen/`, the consumer,
 * package.json and a tsconfig.json (noEmit) for the shape. Returns the tsconfig's path.
 */
export async function setUpProject(
  dir: string,
  generated: string,
  consumer: string,
  shape: ProjectShape,
): Promise<string> {
  const gen = path.join(dir, "gen");
  await cp(generated, gen, { recursive: true });
  if (
    !(await access(path.join(gen, "runtime/index.ts")).then(
      () => true,
      () => false,
    ))
  ) {
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
    compilerOptions: { target: "ES2022", ...compilerOptions, noEmit: true, skipLibCheck: true },
    include: ["consumer.ts", "gen/**/*.ts"],
  };
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  return path.join(dir, "tsconfig.json");
}

/**
 * Type-checks the project `setUpProject` set up in `dir` and compiles it to JavaScript in
 * `dir/out`, as the shape's module setting says (CommonJS for "node16-commonjs"), in one program;
 * returns the compiler's messages.
 */
export function emitProject(dir: string): string {
  return compileProject(path.join(dir, "tsconfig.json"), {
    noEmit: false,
    outDir: path.join(dir, "out"),
  });
}

/**
 * `tsc -p configPath` in this process (`overrides` as its command-line options), without starting
 * a process per project: returns the compiler's messages, empty when it passed, and writes the
 * output where the config says unless it says `noEmit`. Files for which `checks` says false are
 * read for their types, and only their syntax is checked.
 */
export function compileProject(
  configPath: string,
  overrides: ts.CompilerOptions = {},
  checks: (file: string) => boolean = () => true,
): string {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined,
  });
  if (!parsed) return `cannot read ${configPath}`;
  const program = createCachedProgram(parsed.fileNames, parsed.options);
  const checked = [...parsed.errors, ...diagnosticsOf(program, checks)];
  return formatMessages(
    parsed.options.noEmit ? checked : [...checked, ...program.emit().diagnostics],
  );
}

/**
 * Type-checks `rootNames` with `options` in this process; returns the compiler's messages, empty
 * when it passed. Type-level tests (`expectTypeOf`, `@ts-expect-error`) fail here, not in vitest.
 */
export function compileFiles(
  rootNames: readonly string[],
  options: ts.CompilerOptions,
  extra: readonly ts.Diagnostic[] = [],
): string {
  return programDiagnostics(createCachedProgram(rootNames, options), extra);
}

/** A program over `rootNames` whose declarations under node_modules come from the cache below. */
export function createCachedProgram(
  rootNames: readonly string[],
  options: ts.CompilerOptions,
): ts.Program {
  return ts.createProgram({ rootNames, options, host: cachingHost(options) });
}

/** The messages `tsc` gives for `program` before it emits (and `extra`); empty when it passed. */
export function programDiagnostics(
  program: ts.Program,
  extra: readonly ts.Diagnostic[] = [],
): string {
  return formatMessages([...extra, ...ts.getPreEmitDiagnostics(program)]);
}

/** `ts.getPreEmitDiagnostics`, with semantic checks only for the files `checks` accepts. */
function diagnosticsOf(program: ts.Program, checks: (file: string) => boolean): ts.Diagnostic[] {
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  // As tsc does under noEmit: a project that makes declarations gets their problems too
  // (`isolatedDeclarations` reports there).
  const declarations = program.getCompilerOptions().declaration === true;
  for (const file of program.getSourceFiles())
    if (checks(file.fileName)) {
      diagnostics.push(...program.getSemanticDiagnostics(file));
      if (declarations) diagnostics.push(...program.getDeclarationDiagnostics(file));
    }
  return [...ts.sortAndDeduplicateDiagnostics(diagnostics)];
}

function formatMessages(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => REPO_ROOT,
    getNewLine: () => "\n",
  });
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
