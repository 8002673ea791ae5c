import { parseChannelBody } from '../domain/alert-channel';
import { renderTemplate } from './channel-requests';
import { DeliveryError } from './delivery-error';
import { MAX_RENDERED_CHARS, MAX_TEMPLATE_STEPS, renderBounded, TEMPLATE_VARIABLES, templateProblem } from './template-renderer';

/** Each level iterates the whole payload again: 15^levels bodies, minutes per render on an unbounded engine. */
const nested = (levels: number) => {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    open += `{{#each ${i === 0 ? 'this' : `${'../'.repeat(i)}this`}}}`;
    close = '{{/each}}' + close;
  }
  return `${open}{{@key}}={{this}};${close}`;
};
const payload = Object.fromEntries(TEMPLATE_VARIABLES.map((name) => [name, `value of ${name}`]));
const webhook = (template: string) => ({ type: 'WEBHOOK', config: { name: 'w', url: 'https://hooks.example.com/x', template } });

describe('custom templates do bounded work', () => {
  it('refuses the nested-block worst case at save, and fails its delivery for good without rendering it out', () => {
    const worst = nested(8);
    expect(templateProblem(worst)).toMatch(/nested at most 3 deep/);
    const parsed = parseChannelBody(webhook(worst), { allowPrivate: false });
    expect(parsed.settings).toBeNull();
    expect(parsed.details).toEqual([{ path: 'config.template', message: expect.stringMatching(/nested at most 3 deep/) }]);
    let error: unknown;
    try {
      renderTemplate(worst, payload);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).retryable).toBe(false);
  });

  it('stops a shallow template that iterates too often, at save and at render', () => {
    const three = '{{#each this}}{{#each ../this}}{{#each ../../this}}.{{/each}}{{/each}}{{/each}}'; // 15 + 225 + 3375 bodies
    expect(templateProblem(three)).toBe(`template renders more than ${MAX_TEMPLATE_STEPS} blocks`);
    expect(templateProblem(nested(3))).toMatch(/^template renders more than/);
    expect(() => renderTemplate(three, payload)).toThrow(DeliveryError);
    expect(templateProblem('{{#each this}}{{#each ../this}}{{@key}};{{/each}}{{/each}}')).toBeNull();
    expect(renderBounded(nested(1), { A: '1', B: '2' })).toBe('A=1;B=2;');
  });

  it('refuses a template whose output exceeds the cap against the largest payload', () => {
    const big = '{{ALERT_TITLE}}'.repeat(100); // 100 KiB with 1 KiB titles
    expect(templateProblem(big)).toBe(`template renders more than ${MAX_RENDERED_CHARS} characters`);
    expect(templateProblem('{{ALERT_TITLE}}'.repeat(10))).toBeNull();
  });

  it('offers no helper that writes to the server log or looks values up by computed name, nor partials', () => {
    expect(templateProblem('{{log "hello" level="error"}}')).toBe('the log helper is not available in templates');
    expect(templateProblem('{{lookup this "constructor"}}')).toBe('the lookup helper is not available in templates');
    expect(templateProblem('{{> secrets}}')).toMatch(/partials/);
    expect(templateProblem('{{#*inline "x"}}y{{/inline}}')).toMatch(/decorators/);
    expect(renderBounded('{{constructor}}{{__proto__}}{{CHECK_NAME.constructor}}', { CHECK_NAME: 'abc' })).toBe('');
  });

  it('keeps the helpers templates are written with', () => {
    const t = '{{#if CHECK_NAME}}{{CHECK_NAME}}{{else}}none{{/if}} {{#unless REGION}}no region{{/unless}} {{#with this}}{{ALERT_TYPE}}{{/with}}';
    expect(templateProblem(t)).toBeNull();
    expect(renderBounded(t, { CHECK_NAME: 'db', REGION: '', ALERT_TYPE: 'ALERT_FAILURE' })).toBe('db no region ALERT_FAILURE');
  });
});
