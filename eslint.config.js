// One linter for the whole repository (formatting is Prettier's job).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'apps/server/drizzle/**',
      '**/generated/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Sudo mode lives in the URL: every in-app link and redirect must keep `?sudo=` (sudo-navigation.tsx).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/session/sudo-navigation.tsx', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['Link', 'NavLink', 'Navigate', 'useNavigate', 'redirect'],
              message:
                'Use SudoLink, SudoNavigate or useSudoNavigate (session/sudo-navigation.tsx): they keep ?sudo=.',
            },
            {
              // The whole contract holds the zod schemas: its values would ship zod on a visitor's first load.
              name: '@pacebeat/contract',
              allowTypeImports: true,
              message:
                "Import values from '@pacebeat/contract/rules' (no zod); only types from the whole contract.",
            },
          ],
        },
      ],
    },
  },
  {
    // The web app calls the server only through each feature's query module (STYLE.md §23), by the
    // endpoint's name from the contract's table: `api.call('targets.edit', …)`.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/web/src/**/*-queries.ts',
      'apps/web/src/api/client.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // `api.call('name', …)`: a call whose first argument is a string (not `fn.call(thisArg)`).
          selector:
            "CallExpression[callee.property.name='call'][arguments.0.type='Literal'][arguments.0.raw=/^['\"]/]",
          message: "Call the server through your feature's query module (<feature>/<feature>-queries.ts).",
        },
      ],
    },
  },
  {
    // Only repositories, db/ itself, and tests may issue SQL (STYLE.md §1).
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/main.ts',
      'apps/server/src/jobs/**',
      'apps/server/src/http/health.routes.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/client', '**/db/client.ts'],
              message: 'Only *.repository.ts files (and db/) may use the database client.',
            },
          ],
        },
      ],
    },
  },
);
