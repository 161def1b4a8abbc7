import type { StatementStructures } from "ts-morph";
import type { ProjectModel } from "../model/build-model.js";
import { banner } from "./banner.js";
import { RUNTIME_ENTRY, RUNTIME_TYPE_EXPORTS, RUNTIME_VALUE_EXPORTS } from "./runtime-exports.js";
import { tsMorph } from "./ts-morph-entry.js";

const { printStructure, StructureKind } = tsMorph;

/**
 * `index.ts`: the runtime's exports, and each flow module as a namespace (`acmeQa.createQaClient`),
 * so flows with the same name in different orgs sit side by side. Importing a flow's own module
 * instead keeps type-checking to that flow.
 *
 * @example
 * const text = emitIndexModule(model);
 */
export function emitIndexModule(model: ProjectModel): string {
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ExportDeclaration,
      moduleSpecifier: `./${RUNTIME_ENTRY}`,
      namedExports: [...RUNTIME_VALUE_EXPORTS],
    },
    {
      kind: StructureKind.ExportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./${RUNTIME_ENTRY}`,
      namedExports: [...RUNTIME_TYPE_EXPORTS],
    },
    ...model.flows.map((flow): StatementStructures => ({
      kind: StructureKind.ExportDeclaration,
      namespaceExport: flow.indexNamespace,
      moduleSpecifier: `./${flow.modulePath}.js`,
    })),
  ];
  return printStructure({
    kind: StructureKind.SourceFile,
    leadingTrivia: `${banner("the specs")}\n\n`,
    statements,
  });
}
