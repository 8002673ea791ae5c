/**
 * Pieces of the console's form templates: a field with its label, hint and error, tied together by ids
 * (aria-describedby). `id` is also the field's name and its key in the view's `values` and `errors`.
 */
const describedBy = (id: string, hint: boolean) =>
  `{{#if errors.${id}}} aria-invalid="true" aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error"{{else}}${hint ? ` aria-describedby="${id}-hint"` : ''}{{/if}}`;

const hintOf = (id: string, hint?: string) => (hint ? `<p class="muted hint" id="${id}-hint">${hint}</p>` : '');

export const fieldError = (id: string) => `{{#if errors.${id}}}<p class="field-error" id="${id}-error">{{errors.${id}}}</p>{{/if}}`;

export interface InputOptions {
  type?: 'text' | 'url' | 'number' | 'datetime-local' | 'color';
  max?: number;
  hint?: string;
  required?: boolean;
  extra?: string;
}

export function input(id: string, label: string, options: InputOptions = {}): string {
  const { type = 'text', max, hint, required, extra = '' } = options;
  const limits = type === 'number' ? '' : max ? ` maxlength="${max}"` : '';
  return `<div><label for="${id}">${label}</label>${hintOf(id, hint)}${fieldError(id)}<input type="${type}" id="${id}" name="${id}"${limits}${required ? ' required' : ''}${extra} value="{{values.${id}}}"${describedBy(id, !!hint)}></div>`;
}

export function textarea(id: string, label: string, max: number, hint?: string): string {
  return `<div><label for="${id}">${label}</label>${hintOf(id, hint)}${fieldError(id)}<textarea id="${id}" name="${id}" rows="3" maxlength="${max}"${describedBy(id, !!hint)}>{{values.${id}}}</textarea></div>`;
}

/** A select whose options are the view's `{{choices}}` list of `{value, text?, selected}`. */
export function select(id: string, label: string, choices: string): string {
  return `<div><label for="${id}">${label}</label>${fieldError(id)}<select id="${id}" name="${id}"${describedBy(id, false)}>{{#each ${choices}}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{#if text}}{{text}}{{else}}{{value}}{{/if}}</option>{{/each}}</select></div>`;
}

/** The line above a form that failed: nothing was written. */
export const formFailed = (what: string) => `{{#if errors}}<p class="error" role="alert">${what}: correct the fields marked below.{{#if errors.form}} {{errors.form}}{{/if}}</p>{{/if}}`;

export const csrf = '<input type="hidden" name="csrf" value="{{csrf}}">';

/** A one-button form that posts (delete, end, check now). */
export const postButton = (action: string, text: string, danger = false) =>
  `<form method="post" action="${action}" class="inline">${csrf}<button class="btn${danger ? ' danger' : ' quiet'}" type="submit">${text}</button></form>`;
