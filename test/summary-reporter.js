'use strict';
const { relative } = require('node:path');

// Ends the run with one line per skipped suite, saying why it skipped (the reason its title gives, by the
// project's convention "(skipped unless …)"), then one plain line any CI can read:
// "jest: N passed, N failed, N skipped".
class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const lines = [];
    for (const file of results.testResults) {
      const suites = new Map();
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'todo') continue;
        const suite = test.ancestorTitles[0] ?? '(top level)';
        suites.set(suite, (suites.get(suite) ?? 0) + 1);
      }
      for (const [suite, count] of suites) {
        lines.push(`skipped: ${relative(this.rootDir, file.testFilePath)} › ${suite}: ${count} test${count === 1 ? '' : 's'}, ${reason(suite)}`);
      }
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\n${lines.map((line) => `${line}\n`).join('')}jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}

/** The "(skipped unless …)" or "(… skipped …)" part of a suite's titles, else what skipped it. */
function reason(suite) {
  const stated = suite.match(/\(([^()]*skip[^()]*)\)/i);
  if (stated) return stated[1];
  return 'marked skip or todo in the file, or left out by a test name pattern';
}

module.exports = SummaryReporter;
