// Lint rules for the HTML report's scripts (src/render/report/assets/*.js, classic browser
// scripts in ES5 style) and for these tests (ES modules run by node).
import js from '@eslint/js';

const browser = {
  window: 'readonly', document: 'readonly', Map: 'readonly', Set: 'readonly',
  BigInt: 'readonly', Number: 'readonly', Math: 'readonly', JSON: 'readonly',
  getComputedStyle: 'readonly', CustomEvent: 'readonly', requestAnimationFrame: 'readonly',
};

export default [
  js.configs.recommended,
  {
    files: ['src/render/report/assets/*.js'],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: 'script',
      globals: { ...browser, cgUtil: 'readonly', cgWindow: 'readonly' },
    },
    rules: {
      'no-var': 'off',
      'eqeqeq': ['error', 'always'],
      'no-implicit-globals': ['error', { lexicalBindings: true }],
      'no-shadow': 'error',
      'no-use-before-define': ['error', { functions: false, variables: false }],
      'no-unused-vars': ['error', { caughtErrors: 'none' }],
    },
  },
  {
    // util.js defines cgUtil, and exports it to node when loaded there.
    files: ['src/render/report/assets/util.js'],
    languageOptions: { globals: { cgUtil: 'off', module: 'readonly' } },
    rules: { 'no-implicit-globals': 'off' },
  },
  {
    // window.js defines cgWindow, and exports it to node likewise.
    files: ['src/render/report/assets/window.js'],
    languageOptions: { globals: { cgWindow: 'off', module: 'readonly' } },
    rules: { 'no-implicit-globals': 'off' },
  },
  {
    files: ['tests/js/*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
];
