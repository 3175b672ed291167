import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      // Builds kept beside server/dist for before-and-after benchmarks (bench/overhead.mjs, bench/micro.mjs).
      '**/dist-*/**',
      '**/node_modules/**',
      'server/drizzle/**',
      'coverage/**',
      'e2e/.screenshots/**',
      'playwright-report/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Code that runs in Node imports date-fns function by function: its index loads 300 modules and
    // Node reads its 199 KB package.json once for each, 1.5 s of every server start (the client's
    // bundler keeps only what it uses, so the client may import the index).
    files: ['shared/src/**/*.ts', 'server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'date-fns', message: "Import the function's own module: 'date-fns/format'." }] },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
