// ESLint for the browser client (no build step: plain ES modules) and its node unit tests.
// Development only: `make lint-js` (part of `make test`).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/"] },
  js.configs.recommended,
  {
    files: ["majiang/server/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.mjs", "tests/js/**/*.js", "eslint.config.mjs", "bench/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
  {
    // evaluated in the page by the browser tests (a function expression, not a module)
    files: ["tests/web_*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
];
