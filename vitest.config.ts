import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The runtime's unit tests sit beside its source in templates/runtime/ (they are not copied into output).
    include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    // Type-level assertions (expectTypeOf, @ts-expect-error) prove something only when tsc reads them:
    // every test file is also type-checked with the repo's tsconfig, and a type error fails the run.
    typecheck: {
      enabled: true,
      tsconfig: "./tsconfig.json",
      include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    },
    // Both cores: most test files wait on child processes, sockets or tsc. Test files share a worker's
    // module graph (no test file relies on module state of its own: env stubs are undone, servers closed).
    maxWorkers: 2,
    isolate: false,
    // Every file flowgen's fast printers print in a test run is also formatted by prettier and
    // compared (src/format/check-printers.ts): the printers are proven on everything the tests make.
    env: { FLOWGEN_CHECK_PRINTERS: "1" },
    // CLI and tsc tests start real processes; on a 2-core CI machine they need more than 5 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
