/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

// Node 20 has no require(esm) inside jest: the few ESM-only packages the app loads are compiled to CommonJS.
const ESM_ONLY = ['feed', '@seriousme/openapi-schema-validator', 'openid-client', 'oauth4webapi', 'jose'];

const common = {
  transform: { '^.+\\.ts$': swc, [`node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  testEnvironment: 'node',
  rootDir: __dirname,
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'] },
  ],
  testTimeout: 30000,
  // One worker process on two cores, as before, but recycled once it holds more than this after a file: in
  // the main process the heap grew past 4 GB over ~200 files and later files slowed into their timeouts.
  workerIdleMemoryLimit: '1.5GB',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
