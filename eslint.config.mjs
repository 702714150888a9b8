// Lint configuration: typescript-eslint's recommended rules for src/ and test/, plus the
// project's own: type-only imports say so, Node built-ins are imported as `node:...`, and
// notifications go through src/common/notify.ts (which makes outside text inert).
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const bareBuiltins = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-restricted-imports': ['error', {
        paths: bareBuiltins.map((name) => ({ name, message: `Import Node built-ins as 'node:${name}'.` })),
      }],
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      'no-throw-literal': 'error',
    },
  },
  {
    // Notifications go through src/common/notify.ts, which makes outside text inert (VS Code
    // turns [label](command:...) in a notification into a link that runs the command).
    files: ['src/**/*.ts'],
    ignores: ['src/common/notify.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
        message: 'Show notifications through src/common/notify.ts: it makes outside text inert.',
      }],
    },
  },
);
