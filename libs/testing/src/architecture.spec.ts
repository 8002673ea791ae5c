import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The seams of issue 38, checked on the source tree:
 * 1. a context imports another context only through its face `libs/<ctx>/src/<ctx>.api.ts`;
 * 2. `apps/` (and the test harness) import contexts only through their faces;
 * 3. infrastructure libs import no context;
 * 4. every context has a face;
 * 5. only a context's `write/*.handler.ts` calls the CommandRunner.
 */

const ROOT = resolve(__dirname, '../../..');
const CONTEXTS = ['accounts', 'agent', 'alerting', 'heartbeats', 'incidents', 'maintenance', 'public-web', 'status-pages', 'people', 'console', 'monitors', 'audit'];
const INFRASTRUCTURE = ['core', 'event-store', 'read-store', 'sqlite', 'http', 'platform', 'testing'];

// TEMPORARY: today's violations, so the rule can be in `npm test` while the contexts are being sealed.
// This list only shrinks: an entry that no longer occurs fails the test until it is removed. Empty it; never add to it.
const ALLOWED_IMPORTS: string[] = [
];
// TEMPORARY, same rule: files other than a `write/*.handler.ts` that still call the CommandRunner.
const ALLOWED_RUNNER_CALLERS: string[] = [
];

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)'(\.{1,2}\/[^']*)'/g;
const RUNNER_CALL = /\b\w*[rR]unner\s*\.\s*run\s*[(<]/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function scanned(): string[] {
  const libs = readdirSync(join(ROOT, 'libs')).flatMap((lib) => sourceFiles(join(ROOT, 'libs', lib, 'src')));
  return [...libs, ...sourceFiles(join(ROOT, 'apps'))].map((file) => relative(ROOT, file)).sort();
}

function resolveImport(from: string, specifier: string): string {
  const base = resolve(ROOT, dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate);
  }
  return relative(ROOT, `${base}.ts`);
}

function libOf(path: string): string | null {
  const match = /^libs\/([^/]+)\//.exec(path);
  return match ? match[1] : null;
}

const isContext = (lib: string | null): lib is string => lib !== null && CONTEXTS.includes(lib);
const faceOf = (context: string): string => `libs/${context}/src/${context}.api.ts`;

export function importViolations(file: string, source: string): string[] {
  const fromLib = libOf(file);
  const violations: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const target = resolveImport(file, match[1]);
    const toLib = libOf(target);
    if (!isContext(toLib) || toLib === fromLib) continue;
    const viaFace = target === faceOf(toLib);
    const infrastructure = fromLib !== null && INFRASTRUCTURE.includes(fromLib) && fromLib !== 'testing';
    // Infrastructure may not depend on a context at all; contexts, apps and the test harness only on its face.
    if (infrastructure || !viaFace) violations.push(`${file} → ${target}`);
  }
  return violations;
}

export function callsRunner(file: string, source: string): boolean {
  if (libOf(file) === 'event-store' || !source.includes('CommandRunner')) return false;
  const lib = libOf(file);
  const ownHandler = isContext(lib) && new RegExp(`^libs/${lib}/src/write/[^/]+\\.handler\\.ts$`).test(file);
  return !ownHandler && RUNNER_CALL.test(source);
}

function stale(allowed: string[], found: string[]): string[] {
  return allowed.filter((entry) => !found.includes(entry));
}

describe('the seams between contexts', () => {
  const files = scanned();
  const sources = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const importFindings = [...new Set(files.flatMap((file) => importViolations(file, sources.get(file)!)))];
  const presentContexts = CONTEXTS.filter((context) => existsSync(join(ROOT, 'libs', context)));
  const faceFindings = presentContexts.filter((context) => !existsSync(join(ROOT, faceOf(context)))).map((context) => `libs/${context} → ${faceOf(context)} (missing face)`);
  const runnerFindings = files.filter((file) => callsRunner(file, sources.get(file)!)).map((file) => `${file} → CommandRunner.run`);

  it('imports another context only through its face, and infrastructure imports no context', () => {
    const found = [...importFindings, ...faceFindings];
    expect(found.filter((violation) => !ALLOWED_IMPORTS.includes(violation))).toEqual([]);
  });

  it('calls the CommandRunner only from a context\'s write/*.handler.ts', () => {
    expect(runnerFindings.filter((violation) => !ALLOWED_RUNNER_CALLERS.includes(violation))).toEqual([]);
  });

  it('keeps the temporary allow-lists to violations that still occur (delete the entries listed here)', () => {
    expect(stale(ALLOWED_IMPORTS, [...importFindings, ...faceFindings])).toEqual([]);
    expect(stale(ALLOWED_RUNNER_CALLERS, runnerFindings)).toEqual([]);
  });
});

describe('the seam rules themselves', () => {
  it('flag a deep import into another context and accept its face', () => {
    expect(importViolations('libs/alerting/src/write/x.ts', "import { a } from '../../../incidents/src/write/incident.commands';")).toEqual([
      'libs/alerting/src/write/x.ts → libs/incidents/src/write/incident.commands.ts',
    ]);
    expect(importViolations('libs/alerting/src/write/x.ts', "import type { a } from '../../../incidents/src/incidents.api';")).toEqual([]);
    expect(importViolations('libs/alerting/src/write/x.ts', "import { a } from '../domain/alert-channel';")).toEqual([]);
  });

  it('flag an app reaching past a face, and infrastructure importing any context', () => {
    expect(importViolations('apps/cli/src/main.ts', "const m = await import('../../../libs/accounts/src/write/create-account.command');")).toEqual([
      'apps/cli/src/main.ts → libs/accounts/src/write/create-account.command.ts',
    ]);
    expect(importViolations('libs/read-store/src/x.ts', "export { y } from '../../incidents/src/incidents.api';")).toEqual([
      'libs/read-store/src/x.ts → libs/incidents/src/incidents.api.ts',
    ]);
    expect(importViolations('libs/incidents/src/x.ts', "import { y } from '../../read-store/src/read-store.port';")).toEqual([]);
  });

  it('flag a runner call outside a handler', () => {
    const call = 'constructor(private readonly runner: CommandRunner) {}\n await this.runner.run(stream, decider, command, actor);';
    expect(callsRunner('libs/incidents/src/write/incident.handler.ts', call)).toBe(false);
    expect(callsRunner('libs/incidents/src/http/incidents.controller.ts', call)).toBe(true);
    expect(callsRunner('libs/agent/src/http/agent.controller.ts', 'await this.runner.run({ messages });')).toBe(false);
  });
});
