import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:system`: the tests that run other programs end to end: npm packing and installing
 * the package for the README's quick start, headless Chromium, projects made by `npm init`, `tsc`
 * in every project shape users have, concurrent writer processes, another prettier release. `npm
 * test` type-checks these files too. The rest of the settings are `npm test`'s.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ["test/system/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    typecheck: { enabled: false },
  },
});
