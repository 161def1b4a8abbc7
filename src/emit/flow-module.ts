import type { JSDocStructure, OptionalKind, StatementStructures, WriterFunction } from "ts-morph";
import type { FlowModel } from "../model/build-model.js";
import { banner } from "./banner.js";
import { exampleLiteral } from "./example-literal.js";
import { jsDocText } from "./jsdoc.js";
import { RUNTIME_ENTRY } from "./runtime-exports.js";
import { tsMorph } from "./ts-morph-entry.js";

const { printStructure, StructureKind, ts, VariableDeclarationKind } = tsMorph;

const BLANK_LINE: WriterFunction = (writer) => writer.blankLineIfLastNot();

export interface EmitOptions {
  /** Base URL compiled into the clients as their default, when the project configured one. */
  readonly baseUrl: string | undefined;
  /** The flow's validators module exists (`--validators`): import it and hand it to the client. */
  readonly validators: boolean;
}

/**
 * One flow's module: `<Name>Input`/`<Name>Output` types and a `create<Name>Client` factory bound to
 * the flow's path. It imports only the shared runtime and its own `.types.ts` (openapi-typescript's
 * declarations for this flow), whose `paths` types the client's openapi-fetch client: type-checking
 * code that uses one flow never loads the others.
 *
 * @example
 * const text = emitFlowModule(flow, { baseUrl: undefined, validators: false });
 */
export function emitFlowModule(flow: FlowModel, options: EmitOptions): string {
  return printStructure({
    kind: StructureKind.SourceFile,
    leadingTrivia: `${banner(`the spec ${flow.specPath}`)}\n\n`,
    statements: [
      ...declareImports(flow, options),
      BLANK_LINE,
      ...declareTypes(flow),
      BLANK_LINE,
      declareFlowConst(flow, options),
      declareFactory(flow, options),
    ],
  });
}

/** The runtime, the flow's `.types.ts` (re-exported) and, with `--validators`, its validators. */
function declareImports(flow: FlowModel, options: EmitOptions): StatementStructures[] {
  const runtime = `${"../".repeat(flow.modulePath.split("/").length - 1)}${RUNTIME_ENTRY}`;
  const stem = `./${flow.modulePath.split("/").pop() ?? ""}`;
  const typesModule = `${stem}.types.js`;
  return [
    // The runtime as a namespace: a flow's own names (`@acme/flow` gives `createFlowClient` and
    // `FlowClient`) can then never meet the runtime's, and no flow name is ever `runtime`.
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: runtime, namespaceImport: "runtime" },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: typesModule,
      namedImports: ["components", "paths"],
    },
    ...(options.validators
      ? [
          {
            kind: StructureKind.ImportDeclaration,
            moduleSpecifier: `${stem}.validators.js`,
            namedImports: [flow.names.validators],
          } satisfies StatementStructures,
        ]
      : []),
    {
      kind: StructureKind.ExportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: typesModule,
      namedExports: ["components", "operations", "paths"],
    },
  ];
}

/** `<Name>Input`, `<Name>Output` and `<Name>Client`. */
function declareTypes(flow: FlowModel): StatementStructures[] {
  const { typePrefix } = flow.names;
  return [
    typeAlias(
      `${typePrefix}Input`,
      `components["schemas"][${JSON.stringify(flow.inputComponent)}]`,
      `The request body of \`${flow.id}\`.`,
    ),
    typeAlias(
      `${typePrefix}Output`,
      `components["schemas"][${JSON.stringify(flow.outputComponent)}]`,
      `The response body of \`${flow.id}\`.`,
    ),
    typeAlias(
      `${typePrefix}Client`,
      `runtime.FlowClient<${typePrefix}Input, ${typePrefix}Output, paths>`,
      `A client for \`${flow.id}\`: \`run\` throws \`FlowError\`, \`call\` returns \`{ data, error, response }\`, \`client\` is its openapi-fetch client.`,
    ),
  ];
}

/**
 * The flow's id and path (and validators) as a constant the runtime reads. The validators say
 * their type: declarations made file by file (`isolatedDeclarations`) cannot see the type of an
 * imported value.
 */
function declareFlowConst(flow: FlowModel, options: EmitOptions): StatementStructures {
  const validators = options.validators
    ? `, validators: ${flow.names.validators} as runtime.FlowValidators`
    : "";
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [{ description: `Where \`${flow.id}\` lives on the platform.` }],
    declarations: [
      {
        name: flow.names.flowConst,
        initializer: `{ id: ${JSON.stringify(flow.id)}, path: ${JSON.stringify(flow.httpPath)}${validators} } as const`,
      },
    ],
  };
}

/** `create<Name>Client`: the runtime's client bound to this flow. */
function declareFactory(flow: FlowModel, options: EmitOptions): StatementStructures {
  const { typePrefix, factory, flowConst } = flow.names;
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: factory,
    docs: [factoryDoc(flow)],
    parameters: [{ name: "options", type: "runtime.ClientOptions", initializer: "{}" }],
    returnType: `${typePrefix}Client`,
    statements: (writer) => {
      // The runtime's defaults argument only when there is a default to give.
      const defaults =
        options.baseUrl === undefined ? [] : [`{ baseUrl: ${JSON.stringify(options.baseUrl)} }`];
      const args = [flowConst, ...defaults, "options"].join(", ");
      writer.write(
        `return runtime.createFlowClient<${typePrefix}Input, ${typePrefix}Output, paths>(${args});`,
      );
    },
  };
}

function typeAlias(name: string, type: string, description: string): StatementStructures {
  return { kind: StructureKind.TypeAlias, isExported: true, name, type, docs: [{ description }] };
}

function factoryDoc(flow: FlowModel): OptionalKind<JSDocStructure> {
  const lines = [flow.summary ?? `Creates a client for the flow \`${flow.id}\`.`];
  if (flow.description !== undefined) lines.push("", flow.description);
  const tags: OptionalKind<JSDocStructure>["tags"] = [
    { tagName: "example", text: exampleCode(flow) },
  ];
  if (flow.deprecated)
    tags.push({ tagName: "deprecated", text: "The flow is marked deprecated in its spec." });
  return {
    description: jsDocText(lines.join("\n")),
    tags: tags.map((tag) => ({ ...tag, text: jsDocText(String(tag.text)) })),
  };
}

/** The factory's `@example`: a client, then a run with the spec's first example input, if any. */
function exampleCode(flow: FlowModel): string {
  const stem = flow.names.flowConst.replace(/Flow$/, "");
  // `const class = …` would not compile: a keyword stem gets a suffix.
  const variable =
    ts.identifierToKeywordKind(ts.factory.createIdentifier(stem)) === undefined
      ? stem
      : `${stem}Client`;
  const run = `const output = await ${variable}.run(`;
  const example = flow.examples[0];
  const input =
    example === undefined
      ? "input"
      : exampleLiteral(example.input, { column: run.length, after: ");".length });
  return [
    "",
    `const ${variable} = ${flow.names.factory}({ apiKey: process.env.FLOW_API_KEY, baseUrl: "https://api.example.com" });`,
    `${run}${input});`,
  ].join("\n");
}
