// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "generated/",
      "test/golden/*/expected/",
      "test/fixtures/",
      "bench/out/",
      "scratch/",
      // Ajv's standalone code (scripts/compile-spec-validators.mjs writes it).
      "src/spec/compiled-spec-validators.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ["./tsconfig.build.json", "./tsconfig.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore marks a value kept on purpose; a rest sibling drops the named keys.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["test/**/*.ts", "templates/**/*.test.ts"],
    rules: {
      // vitest's asymmetric matchers (expect.any, expect.stringContaining) are typed `any`.
      "@typescript-eslint/no-unsafe-assignment": "off",
      // expectTypeOf(client.run) reads a method's type; nothing calls it unbound.
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Scripts and config files outside the two TypeScript projects: syntax rules only.
    files: ["**/*.js", "**/*.mjs", "*.config.ts"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
