import { defineConfig } from "vitest/config";

/**
 * `npm test`: flowgen's code run in this process (its API, the CLI's `main`, servers and clients on
 * 127.0.0.1). The system tests, which run other programs end to end, are in test/system/ and
 * vitest.system.config.ts (`npm run test:system`); CI runs both.
 */
export default defineConfig({
  test: {
    // The runtime's unit tests sit beside its source in templates/runtime/ (they are not copied into output).
    include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    exclude: ["test/system/**", "**/node_modules/**"],
    // Type-level assertions (expectTypeOf, @ts-expect-error) prove something only when tsc reads them:
    // every test file, the system tests' too, is also type-checked with the repo's tsconfig, and a
    // type error fails the run.
    typecheck: {
      enabled: true,
      tsconfig: "./tsconfig.json",
      include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    },
    // Both cores: many test files wait on sockets or tsc. Test files share a worker's module graph
    // (no test file relies on module state of its own: env stubs are undone, servers closed).
    maxWorkers: 2,
    isolate: false,
    // Every file flowgen's fast printers print in a test run is also formatted by prettier and
    // compared (src/format/check-printers.ts): the printers are proven on everything the tests make.
    env: { FLOWGEN_CHECK_PRINTERS: "1" },
    // On a 2-core CI machine, a test that compiles a project or starts a process needs more than 5 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
