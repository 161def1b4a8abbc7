import type { FlowModel, ProjectModel } from "./build-model.js";

const COMPONENT_REF = '"#/components/schemas/';

/**
 * One of a flow's schemas as a standalone JSON Schema 2020-12 document: the root refers to the
 * flow's input or output component, and every component the flow reaches sits in `$defs`, with
 * refs moved from OpenAPI's `#/components/schemas/` to `#/$defs/`. Validator compilers and mock
 * generators take it as it is.
 *
 * @example
 * const schema = flowSchemaDocument(model, flow, "input"); // { $schema, $ref: "#/$defs/acme.qa.Input", $defs }
 */
export function flowSchemaDocument(
  model: ProjectModel,
  flow: FlowModel,
  which: "input" | "output",
): Record<string, unknown> {
  const components = Object.fromEntries(
    flow.components.map((name) => [name, model.components.get(name)]),
  );
  const $defs = JSON.parse(
    JSON.stringify(components).replaceAll(COMPONENT_REF, '"#/$defs/'),
  ) as Record<string, unknown>;
  const root = which === "input" ? flow.inputComponent : flow.outputComponent;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $ref: `#/$defs/${root}`,
    $defs,
  };
}
