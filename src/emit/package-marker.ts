/** Where in the output folder the package marker goes. */
export const PACKAGE_MARKER_PATH = "package.json";

/**
 * The output folder's own package.json, when the project needs it (`needsModuleMarker`):
 * `"type": "module"`, so Node and TypeScript read the generated `.ts` files, and the `.js` files
 * tsc writes beside them, as the ES modules they are.
 */
export const PACKAGE_MARKER = { type: "module" } as const;
