// Lint configuration: typescript-eslint's recommended rules for src/ and test/, plus the
// project's own: type-only imports say so, Node built-ins are imported as `node:...`,
// notifications go through src/common/notify.ts (which makes outside text inert), our command ids
// are `Commands.x` (never a string literal), and the
// folders of src/ import only the folders LAYERS allows them (docs/ARCHITECTURE.md draws it).
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { LAYERS, PURE_FOLDERS, VSCODE_IN_COMMON, WEBVIEW_RUN_PANEL_FILES } from './scripts/layers.mjs';

const bareBuiltins = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));
const builtinPaths = bareBuiltins.map((name) => ({ name, message: `Import Node built-ins as 'node:${name}'.` }));
const noVscode = {
  name: 'vscode',
  message: 'This folder is plain TypeScript (tested without VS Code): it never imports vscode.',
};
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
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '.cache/**',
      '.vscode-test/**',
      'test-results/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  ...tseslint.configs.recommended,
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
