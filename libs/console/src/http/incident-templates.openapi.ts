import { form, idParam, Json, page, text } from './console-openapi-parts';

/** The console's incident template screens for the OpenAPI document. */
export function incidentTemplatesOpenApiPaths(): Json {
  const fields = {
    name: text(255),
    title: text(255),
    severity: { type: 'string', enum: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] },
    status: { type: 'string', enum: ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] },
    body: text(10_000),
    notify: { type: 'string', enum: ['on'] },
  };
  const required = ['name', 'title', 'severity', 'status', 'body'];
  return {
    '/console/incidents/templates': {
      ...page('Incident templates, and the form that adds one'),
      post: form('Add an incident template', fields, required, [], true),
    },
    '/console/incidents/templates/{id}': {
      ...page('An incident template: the form that edits it, a link that declares an incident from it', [idParam], true),
      post: form('Save an incident template', fields, required, [idParam], true),
    },
    '/console/incidents/templates/{id}/delete': { post: form('Delete an incident template (incidents declared from it stay)', {}, [], [idParam]) },
  };
}
