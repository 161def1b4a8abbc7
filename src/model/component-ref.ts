/** Where a component's `$ref` points: `#/components/schemas/<name>`. */
export const COMPONENT_PREFIX = "#/components/schemas/";

/**
 * The name of the component a `$ref` points at; undefined for any other reference.
 *
 * @example
 * componentName("#/components/schemas/acme.qa.Input"); // "acme.qa.Input"
 */
export function componentName(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.startsWith(COMPONENT_PREFIX)
    ? ref.slice(COMPONENT_PREFIX.length)
    : undefined;
}
