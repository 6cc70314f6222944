// Lint for the client: typescript-eslint's recommended rules, the rules of
// hooks, and the layout of STYLE.md enforced rather than hoped for — a
// feature imports nothing from another feature (what two features share
// lives in components/ or lib/), and shared code imports no feature.

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layoutPlugin } from './eslint/layout-rule.js';

export default defineConfig([
  globalIgnores(['dist', 'node_modules', 'test-results', 'playwright-report']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser },
    },
    rules: {
      // `const { gone: _gone, ...rest } = o` is how we drop a key; the named one is unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { layout: layoutPlugin },
    rules: {
      'layout/no-cross-feature-imports': 'error',
    },
  },
  {
    // Node-side config and the Playwright suite.
    files: ['*.{js,ts}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
]);
