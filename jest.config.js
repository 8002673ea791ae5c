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
  // Two workers on two cores: most e2e files wait on timers, sockets and child processes, so the suite takes
  // ~1,030 s instead of ~1,240 s one file at a time (CI must stay under 20 minutes). A worker is recycled once
  // it holds more than this after a file: one long-lived heap grew past 4 GB and slowed later files.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1.5GB',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
