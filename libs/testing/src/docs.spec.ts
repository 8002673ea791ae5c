import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The docs a newcomer reads cite only files that exist, and stay short enough to read. */

const ROOT = resolve(__dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
const read = (file: string) => readFileSync(file, 'utf8');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const lines = (text: string) => text.split('\n').length;

/** Relative markdown link targets, without their anchors. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#')).map((t) => t.split('#')[0]);
}

/** Repository paths named in code spans (`libs/…`, `docs/…`), where they name one file or folder (no placeholders). */
function citedPaths(text: string): string[] {
  return [...text.matchAll(/`((?:apps|libs|docs|test|deploy|\.github|\.ci)\/[^`\s]+)`/g)]
    .map((m) => m[1])
    .filter((path) => !/[<>{}*…|]/.test(path));
}

describe('the docs', () => {
  it.each(DOCS.map((file) => [relative(ROOT, file), file]))('%s cites only files in the repository', (_name, file) => {
    const text = read(file);
    const missing = [
      ...linkTargets(text).filter((target) => !existsSync(resolve(dirname(file), target))),
      ...citedPaths(text).filter((path) => !existsSync(join(ROOT, path.replace(/[.,:;]+$/, '')))),
      ...[...text.matchAll(/\b(?:api\.md|contract\.md|\.\.\/shared\/[^\s`)]*)/g)].map((m) => m[0]),
    ];
    expect(missing).toEqual([]);
  });

  it('open with a user guide that covers the first day', () => {
    const index = read(join(ROOT, 'docs/README.md'));
    for (const page of ['getting-started', 'cron-jobs', 'status-pages-and-incidents', 'alerts', 'subscribers', 'maintenance-windows', 'checkly-cli', 'production']) {
      expect(index).toContain(`guide/${page}.md`);
    }
  });

  it('keep the notes for people who change Vigil short', () => {
    expect(words(read(join(ROOT, 'docs/architecture.md')))).toBeLessThanOrEqual(1500);
    expect(lines(read(join(ROOT, 'docs/decisions.md')))).toBeLessThanOrEqual(150);
    expect(lines(read(join(ROOT, 'docs/benchmarks.md')))).toBeLessThanOrEqual(150);
  });

  it('name in the README maintenance windows, the checkly CLI and every admin CLI command', () => {
    const readme = read(join(ROOT, 'README.md'));
    const usage = /const USAGE = `([\s\S]*?)`;/.exec(read(join(ROOT, 'apps/cli/src/main.ts')))![1];
    const commands = [...usage.matchAll(/^ {2}([a-z]+ [a-z]+)/gm)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) expect(readme).toContain(`\`${command}`);
    expect(readme).toMatch(/maintenance windows/i);
    expect(readme).toContain('checkly');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
