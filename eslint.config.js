// One linter for the whole repository (formatting is Prettier's job).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Who may issue SQL: repositories, db/ itself, and tests (STYLE.md §1), and what the rest is told.
const mayUseDbClient = [
  'apps/server/src/**/*.repository.ts',
  'apps/server/src/db/**',
  'apps/server/src/**/*.test.ts',
  'apps/server/src/jobs/**',
  'apps/server/src/http/health.routes.ts',
];
const onlyRepositoriesUseDb = {
  group: ['**/db/client', '**/db/client.ts'],
  message: 'Only *.repository.ts files (and db/) may use the database client.',
};
// app/ is the top floor, knowing every feature (STYLE.md §24): nothing below it imports it, so a feature
// never depends on the whole. Tests are exempt: nothing imports them, and route tests need the whole app.
const nothingBelowImportsApp = {
  regex: '^(\\.\\.?/)+app/',
  message:
    'app/ (the composition, settings, HTTP app, job registry) is the top floor: import down, never up. ' +
    'Define what you need in your module (or below it) and let app/ compose it.',
};
const serverImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

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
  // Two import rules on the server's files, written as one `no-restricted-imports` per file set: a later
  // config's options for a rule replace an earlier one's, they do not add up.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/app/**', 'apps/server/src/**/*.test.ts'],
    rules: serverImports(nothingBelowImportsApp),
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [...mayUseDbClient, 'apps/server/src/app/**'],
    rules: serverImports(onlyRepositoriesUseDb, nothingBelowImportsApp),
  },
  {
    files: ['apps/server/src/app/**/*.ts'],
    ignores: mayUseDbClient,
    rules: serverImports(onlyRepositoriesUseDb),
  },
);
