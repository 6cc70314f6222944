// Lint for the client: typescript-eslint's recommended rules, the rules of
// hooks, and the layout of STYLE.md enforced rather than hoped for — a
// feature imports nothing from another feature (what two features share
// lives in components/ or lib/), and shared code imports no feature.

import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** features/X may import from features/X only, never from features/Y. */
const crossFeatureZones = features.map((name) => ({
  target: `./src/features/${name}`,
  from: './src/features',
  except: [`./${name}`],
  message: `features/${name} may not import another feature; move what both need to components/ or lib/.`,
}));

/** Shared code is below the features: it never reaches up into one (or into the app). */
const sharedZones = ['./src/components', './src/lib', './src/config'].map((target) => ({
  target,
  from: ['./src/features', './src/app'],
  message: 'Shared code may not import a feature or the app.',
}));

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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json', '.css'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...crossFeatureZones, ...sharedZones] }],
    },
  },
  {
    // Node-side config and the Playwright suite.
    files: ['*.{js,ts}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
]);
