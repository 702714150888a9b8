// Lint configuration: typescript-eslint's recommended rules for src/ and test/.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
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
