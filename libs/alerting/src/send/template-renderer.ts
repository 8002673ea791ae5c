import Handlebars from 'handlebars';

/** Block nesting a custom template may use (`{{#each}}` inside `{{#if}}` inside `{{#with}}`). */
export const MAX_TEMPLATE_DEPTH = 3;
/** Block bodies rendered per delivery, every `{{#each}}` iteration included. */
export const MAX_TEMPLATE_STEPS = 1_000;
/** The rendered body, in characters. */
export const MAX_RENDERED_CHARS = 64 * 1024;
/** Wall-clock budget of one render, in ms. */
export const MAX_RENDER_MS = 250;
/** Variable values in the worst-case payload a template is tried against when saved. */
const WORST_CASE_VALUE_CHARS = 1024;

/** A template that exceeds a bound or cannot render: it can never succeed, whatever the payload. */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

// Rendering is synchronous, so one budget at a time is the render in progress.
let budget: { steps: number; chars: number; deadline: number } | null = null;

function spend(chars: number): void {
  const b = budget;
  if (!b) return;
  b.steps += 1;
  b.chars += chars;
  if (b.steps > MAX_TEMPLATE_STEPS) throw new TemplateError(`template renders more than ${MAX_TEMPLATE_STEPS} blocks`);
  // Nested bodies are counted at every level, so the cap allows for the depth.
  if (b.chars > MAX_RENDERED_CHARS * (MAX_TEMPLATE_DEPTH + 1)) throw new TemplateError(`template renders more than ${MAX_RENDERED_CHARS} characters`);
  if (Date.now() > b.deadline) throw new TemplateError(`template takes more than ${MAX_RENDER_MS} ms to render`);
}

type Block = ((context: unknown, options?: unknown) => string) & { __counted?: true };

function counted(fn: Block | undefined): Block | undefined {
  if (typeof fn !== 'function' || fn.__counted) return fn;
  const wrapped: Block = function (this: unknown, context: unknown, options?: unknown) {
    spend(0);
    const out = fn.call(this, context, options);
    spend(typeof out === 'string' ? out.length : 0);
    return out;
  };
  wrapped.__counted = true;
  return wrapped;
}

/**
 * Handlebars with only the block helpers (`if`, `unless`, `each`, `with`), each body counted against the
 * render's budget; `log` (writes to the server log) and `lookup` (reaches by computed name) are absent.
 */
const engine = Handlebars.create();
for (const name of ['log', 'lookup']) {
  engine.registerHelper(name, () => {
    throw new TemplateError(`the ${name} helper is not available in templates`);
  });
}
for (const name of ['if', 'unless', 'each', 'with', 'blockHelperMissing']) {
  const original = engine.helpers[name] as (...args: unknown[]) => unknown;
  engine.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    const options = args[args.length - 1] as { fn?: Block; inverse?: Block } | undefined;
    if (options && typeof options === 'object') {
      options.fn = counted(options.fn);
      options.inverse = counted(options.inverse);
    }
    return original.apply(this, args);
  });
}

type Node = { type: string; program?: { body: Node[] }; inverse?: { body: Node[] }; body?: Node[] };

/** What the template's syntax alone rules out: partials, decorators, deeper nesting than allowed. */
function structureProblem(nodes: Node[], depth: number): string | null {
  for (const node of nodes) {
    if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') return 'partials ({{> name}}) are not available in templates';
    if (node.type === 'DecoratorBlock' || node.type === 'Decorator') return 'decorators are not available in templates';
    if (node.type === 'BlockStatement') {
      if (depth + 1 > MAX_TEMPLATE_DEPTH) return `blocks may be nested at most ${MAX_TEMPLATE_DEPTH} deep`;
      const inner = structureProblem([...(node.program?.body ?? []), ...(node.inverse?.body ?? [])], depth + 1);
      if (inner) return inner;
    }
  }
  return null;
}

const compiled = new Map<string, HandlebarsTemplateDelegate>();

function compile(template: string): HandlebarsTemplateDelegate {
  let fn = compiled.get(template);
  if (fn) return fn;
  let ast: hbs.AST.Program;
  try {
    ast = engine.parse(template);
  } catch (error) {
    throw new TemplateError(`template is not valid Handlebars: ${String((error as Error).message).split('\n')[0].slice(0, 200)}`);
  }
  const problem = structureProblem(ast.body as unknown as Node[], 0);
  if (problem) throw new TemplateError(problem);
  fn = engine.compile(template, { noEscape: true, strict: false });
  // Handlebars compiles on the first call: an empty payload does that outside any render's time budget.
  fn({});
  if (compiled.size > 500) compiled.clear();
  compiled.set(template, fn);
  return fn;
}

/** A JSON body (the template starts with `{` or `[`) gets every value JSON-escaped instead of HTML-escaped. */
export const isJsonTemplate = (template: string): boolean => /^\s*[{[]/.test(template);

/** Renders within every bound, or throws a TemplateError; nothing is HTML-escaped. */
export function renderBounded(template: string, variables: Record<string, string>): string {
  const fn = compile(template);
  const values = isJsonTemplate(template) ? Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, JSON.stringify(v).slice(1, -1)])) : variables;
  budget = { steps: 0, chars: 0, deadline: Date.now() + MAX_RENDER_MS };
  let out: string;
  try {
    out = fn(values, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError(`template cannot be rendered: ${String((error as Error).message).split('\n')[0].slice(0, 200)}`);
  } finally {
    budget = null;
  }
  if (out.length > MAX_RENDERED_CHARS) throw new TemplateError(`template renders more than ${MAX_RENDERED_CHARS} characters`);
  return out;
}

/** The variables a template sees (Checkly's names, plus DOWNTIME_SECONDS). */
export const TEMPLATE_VARIABLES = [
  'ALERT_TITLE', 'ALERT_TYPE', 'CHECK_NAME', 'CHECK_ID', 'CHECK_TYPE', 'CHECK_RESULT_ID', 'RESULT_LINK', 'STARTED_AT', 'TAGS',
  'DOWNTIME_SECONDS', 'RESPONSE_TIME', 'REGION', 'RUN_LOCATION', 'GROUP_NAME', 'SSL_DAYS_REMAINING',
] as const;

/** Why a template may not be saved: it fails to render, or exceeds a bound, against the largest payload. */
export function templateProblem(template: string): string | null {
  // Distinct values: Handlebars folds equal nested contexts, which would hide `../` iterations.
  const worst = Object.fromEntries(TEMPLATE_VARIABLES.map((name) => [name, name.padEnd(WORST_CASE_VALUE_CHARS, 'x')]));
  try {
    renderBounded(template, worst);
    return null;
  } catch (error) {
    return error instanceof TemplateError ? error.message : `template cannot be rendered: ${String(error).slice(0, 200)}`;
  }
}
