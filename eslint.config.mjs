// Lint configuration: typescript-eslint's recommended rules for src/ and test/, with the rules that
// need the types (the TypeScript projects: tsconfig.json, and src/webview/tsconfig.json with the DOM
// for the webview) for promises nobody waits for, promises where a callback returns nothing,
// awaits of what is no promise and switches that miss a case; plus the project's own: type-only
// imports say so, Node built-ins are imported as `node:...`, notifications go through
// src/common/notify.ts (which makes outside text inert), our command ids are `Commands.x` (never a
// string literal), and the folders of src/ import only the
// folders LAYERS allows them (docs/ARCHITECTURE.md draws it). The JavaScript (esbuild.js,
// scripts/, the test launchers) gets ESLint's recommended rules with Node's globals.
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { LAYERS, PURE_FOLDERS, VSCODE_IN_COMMON, WEBVIEW_RUN_PANEL_FILES } from './scripts/layers.mjs';

const bareBuiltins = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));
const builtinPaths = bareBuiltins.map((name) => ({ name, message: `Import Node built-ins as 'node:${name}'.` }));
const noVscode = {
  name: 'vscode',
  message: 'This folder is plain TypeScript (tested without VS Code): it never imports vscode.',
};
const ROOT = path.dirname(fileURLToPath(import.meta.url));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One block per folder of src/: imports of the folders it may not use are errors. */
function boundaries() {
  const folders = Object.keys(LAYERS);
  return folders.map((folder) => {
    const allowed = new Set([folder, ...LAYERS[folder]]);
    const denied = folders.filter((f) => !allowed.has(f));
    const patterns =
      denied.length === 0
        ? []
        : [
            {
              regex: `^(\\.\\./)+(${denied.map(escape).join('|')})(/|$)`,
              message: `src/${folder}/ may import only ${[...LAYERS[folder]].join(', ') || 'its own files'} (scripts/layers.mjs, docs/ARCHITECTURE.md).`,
            },
          ];
    if (folder === 'webview') {
      patterns.push({
        regex: `^\\.\\./runPanel/(?!(${WEBVIEW_RUN_PANEL_FILES.join('|')})$)`,
        message: 'The webview imports only the messages of src/runPanel (protocol.ts): the rest is host code.',
      });
      patterns.push({
        regex: `^\\.\\./common/(${VSCODE_IN_COMMON.join('|')})$`,
        message: 'The webview imports only the pure modules of src/common.',
      });
    }
    const paths = PURE_FOLDERS.includes(folder) ? [...builtinPaths, noVscode] : builtinPaths;
    return {
      files: [`src/${folder}/**/*.ts`],
      ...(folder === 'common' ? { ignores: VSCODE_IN_COMMON.map((f) => `src/common/${f}.ts`) } : {}),
      rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
    };
  });
}

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'test-results/**'],
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...js.configs.recommended,
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Imports in one block, in a fixed order (`eslint --fix` sorts them): side-effect imports
    // first (in their own order: the vscode stub of the unit tests must load first), then
    // node: built-ins, packages, and relative paths from the farthest to the nearest.
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': ['error', { groups: [['^\\u0000', '^node:', '^@?\\w', '^', '^\\.']] }],
    },
  },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    // Rules that read the types. The project service gives each file its nearest tsconfig.json:
    // the webview (src/webview/tsconfig.json, with the DOM) is checked against its own project.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
    rules: {
      // A promise is awaited, returned, handled with .catch, or marked `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      // No promise where a callback's result is ignored (an event listener, forEach, setTimeout).
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Inside try, `return await`: a bare returned promise would reject past the catch.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A switch over a union names every member, or has a default that decides for the rest.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An `as` or `!` that changes nothing only hides the day it would (autofixed).
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'no-restricted-imports': ['error', { paths: builtinPaths }],
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'all'],
      'no-throw-literal': 'error',
    },
  },
  {
    // Notifications go through src/common/notify.ts, which makes outside text inert (VS Code
    // turns [label](command:...) in a notification into a link that runs the command).
    files: ['src/**/*.ts'],
    ignores: ['src/common/notify.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
          message: 'Show notifications through src/common/notify.ts: it makes outside text inert.',
        },
        {
          // A command id is `Commands.x` (src/common/ids.ts, generated from the declarations), so a
          // misspelt id does not compile.
          selector:
            'CallExpression[callee.property.name=/^(registerCommand|executeCommand)$/] > :matches(Literal, TemplateLiteral).arguments:first-child[value=/^agentRuntime\\./], CallExpression[callee.property.name=/^(registerCommand|executeCommand)$/] > TemplateLiteral.arguments:first-child[quasis.0.value.raw=/^agentRuntime\\./]',
          message:
            'Name our commands as Commands.x from src/common/ids.ts (declared in src/<feature>/contributions.ts), not as a string: a typo then does not compile.',
        },
      ],
    },
  },
  ...boundaries(),
);
