import { StructureKind, type Project, type StatementStructures } from "ts-morph";
import type { ProjectModel } from "../model/build-model.js";
import { banner } from "./banner.js";

/**
 * `index.ts`: the runtime's exports, and each flow module as a namespace (`acmeQa.createQaClient`),
 * so flows with the same name in different orgs sit side by side. Importing a flow's own module
 * instead keeps type-checking to that flow.
 *
 * @example
 * const text = emitIndexModule(project, model);
 */
export function emitIndexModule(project: Project, model: ProjectModel): string {
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ExportDeclaration,
      moduleSpecifier: "./runtime.js",
      namedExports: ["FlowError", "createFlowClient", "isFlowError", "withMiddleware"],
    },
    {
      kind: StructureKind.ExportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: "./runtime.js",
      namedExports: [
        "ClientOptions",
        "FetchLike",
        "FlowClient",
        "FlowDefinition",
        "FlowErrorBody",
        "FlowErrorDetail",
        "FlowErrorKind",
        "FlowEvent",
        "FlowFailure",
        "FlowResult",
        "FlowValidators",
        "RateLimit",
        "RetryOptions",
        "RunOptions",
        "Validate",
      ],
    },
    ...model.flows.map(
      (flow): StatementStructures => ({
        kind: StructureKind.ExportDeclaration,
        namespaceExport: flow.indexNamespace,
        moduleSpecifier: `./${flow.modulePath}.js`,
      }),
    ),
  ];
  const file = project.createSourceFile("/index.ts", { leadingTrivia: `${banner("the specs")}\n\n`, statements }, { overwrite: true });
  const text = file.getFullText();
  project.removeSourceFile(file);
  return text;
}
