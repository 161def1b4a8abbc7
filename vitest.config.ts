import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The runtime's unit tests sit beside its source in templates/runtime/ (they are not copied into output).
    include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
    // CLI and tsc tests start real processes; on a 2-core CI machine they need more than 5 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
