import { defineConfig } from "vitest/config";

/**
 * System tests: each runs real programs end to end (npm installing the packed tarball, Chromium,
 * projects made by `npm init`, tsc in every project shape users have, concurrent writer processes,
 * another prettier release). `npm run test:system` runs them; CI runs both suites.
 */
export const SYSTEM_TESTS = [
  "test/install.test.ts",
  "test/browser.test.ts",
  "test/new-project.test.ts",
  "test/consumer-tsconfig.test.ts",
  "test/output-lock.test.ts",
  "test/project-prettier.test.ts",
];

/** `npm test`: every other test file, each also type-checked (the system tests' too). */
export default defineConfig({
  test: {
    // The runtime's unit tests sit beside its source in templates/runtime/ (they are not copied into output).
    include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    exclude: [...SYSTEM_TESTS, "**/node_modules/**"],
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
