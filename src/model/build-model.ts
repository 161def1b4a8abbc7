import type { FlowSpec, SpecSet } from "../spec/load-specs.js";
import { mapDiscriminators } from "./discriminator-mappings.js";
import {
  bundleSchemas,
  reachableComponents,
  type BundleRoot,
  type ComponentSchema,
} from "./bundle-schemas.js";
import {
  flowNames,
  foldUnique,
  indexNamespaces,
  operationIds,
  PLATFORM_COMPONENTS,
  type FlowNames,
} from "./names.js";

/** Everything later stages need to know about one flow; plain, readonly data. */
export interface FlowModel {
  readonly id: string;
  readonly org: string;
  readonly name: string;
  /** Spec file relative to the specs folder, for banners and messages. */
  readonly specPath: string;
  /** "/v1/@acme/qa" (seed §4: the flow id is the path segment after /v1/). */
  readonly httpPath: string;
  /** Output module relative to the output folder, without extension: "@acme/qa". */
  readonly modulePath: string;
  readonly summary: string | undefined;
  readonly description: string | undefined;
  readonly deprecated: boolean;
  readonly names: FlowNames;
  /** The OpenAPI tag of the flow's org: `@acme`, distinct from other orgs' after case folding. */
  readonly tag: string;
  /** Name under which the index re-exports this module. */
  readonly indexNamespace: string;
  readonly inputComponent: string;
  readonly outputComponent: string;
  /** Every component the flow's input and output reach, roots included, sorted. */
  readonly components: readonly string[];
  readonly examples: FlowSpec["examples"];
}

export interface ProjectModel {
  /** Sorted by id (code-unit order). */
  readonly flows: readonly FlowModel[];
  /** Every flow and shared schema component, sorted by name. */
  readonly components: ReadonlyMap<string, ComponentSchema>;
  /**
   * Where each component's schema lies in the specs (`file#pointer`): with the texts of those
   * files and the names, what the component holds.
   */
  readonly componentSources: ReadonlyMap<string, string>;
}

/**
 * Builds the project model from checked specs: names, paths and bundled components.
 * `reservedNames` are names the generated index already exports (the runtime's): no flow
 * namespace takes one.
 *
 * @example
 * const model = buildModel(specs);
 * model.flows[0].names.factory; // "createQaClient"
 */
export function buildModel(
  specs: SpecSet,
  options: { readonly reservedNames?: readonly string[] } = {},
): ProjectModel {
  const flows = [...specs.flows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const stems = operationIds(flows);
  const roots: BundleRoot[] = flows.flatMap((flow, i) => [
    { resource: { relPath: flow.relPath, root: "/input" }, name: `${stems[i]}.Input` },
    { resource: { relPath: flow.relPath, root: "/output" }, name: `${stems[i]}.Output` },
  ]);
  const bundle = bundleSchemas(roots, specs.index, Object.values(PLATFORM_COMPONENTS));
  const namespaces = indexNamespaces(flows, options.reservedNames);
  const orgs = [...new Set(flows.map((flow) => flow.org))];
  const tags = new Map(foldUnique(orgs.map((org) => `@${org}`)).map((tag, i) => [orgs[i], tag]));
  return {
    flows: flows.map((flow, i) => {
      const names = {
        ...flowNames(flow.org, flow.name),
        componentStem: stems[i] ?? `${flow.org}.${flow.name}`,
      };
      const inputComponent = `${names.componentStem}.Input`;
      const outputComponent = `${names.componentStem}.Output`;
      return {
        id: flow.id,
        org: flow.org,
        name: flow.name,
        specPath: flow.relPath,
        httpPath: `/v1/${flow.id}`,
        modulePath: flow.id,
        summary: flow.summary,
        description: flow.description,
        deprecated: flow.deprecated,
        names,
        tag: tags.get(flow.org) ?? `@${flow.org}`,
        indexNamespace: namespaces[i] ?? names.typePrefix,
        inputComponent,
        outputComponent,
        components: reachableComponents(bundle, [inputComponent, outputComponent]),
        examples: flow.examples,
      };
    }),
    components:
      bundle.discriminated.size > 0
        ? mapDiscriminators(bundle.components, bundle.sources, bundle.discriminated)
        : bundle.components,
    componentSources: bundle.sources,
  };
}
