import Handlebars from 'handlebars';

/** A rendered email: subject, text and HTML (every user string escaped in the HTML part). */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const hb = Handlebars.create();
const textOf = (source: string) => hb.compile(source, { noEscape: true, strict: true });
const htmlOf = (source: string) => hb.compile(source, { strict: true });

const layout = (body: string) => `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{subject}}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:560px;margin:24px auto;padding:0 16px">
${body}
{{#if unsubscribeUrl}}<p style="color:#666;font-size:12px;margin-top:32px"><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>{{/if}}
</body></html>`;

const TEMPLATES = {
  checkAlert: {
    text: textOf(
      '{{title}}\n\n{{summary}}\n\n{{#if output}}Output (first lines):\n{{output}}\n\n{{/if}}Check: {{checkName}}{{#if checkId}} ({{checkId}}){{/if}}\n{{#if link}}Open the check: {{link}}\n{{/if}}',
    ),
    html: htmlOf(
      layout(
        '<h2>{{title}}</h2><p>{{summary}}</p>' +
          '{{#if output}}<p style="margin-bottom:4px">Output (first lines):</p><pre style="background:#f4f4f5;padding:8px 12px;border-radius:4px;white-space:pre-wrap;word-break:break-word;font-size:13px">{{output}}</pre>{{/if}}' +
          '<p>Check: <strong>{{checkName}}</strong>{{#if checkId}} <span style="color:#666">({{checkId}})</span>{{/if}}</p>' +
          '{{#if link}}<p><a href="{{link}}">Open the check</a></p>{{/if}}',
      ),
    ),
  },
  confirm: {
    text: textOf('Confirm your subscription to {{pageName}}\n\nSomeone (hopefully you) asked to receive incident updates from {{pageName}} at this address.\nConfirm within 48 hours: open this link and press its button.\n\n{{confirmUrl}}\n\nIf you did not ask for this, ignore this email.\n'),
    html: htmlOf(layout('<h2>Confirm your subscription to {{pageName}}</h2><p>Someone (hopefully you) asked to receive incident updates from <strong>{{pageName}}</strong> at this address.</p><p><a href="{{confirmUrl}}">Confirm the subscription</a> (the link is valid for 48 hours; it opens a page with a button).</p><p>If you did not ask for this, ignore this email.</p>')),
  },
  incident: {
    text: textOf(
      '{{pageName}}: {{incidentName}}\n\nStatus: {{status}}\n\n{{body}}\n\n{{#if incidentUrl}}Follow the incident: {{incidentUrl}}\n{{/if}}{{#if pageUrl}}Status page: {{pageUrl}}\n{{/if}}\nUnsubscribe: {{unsubscribeUrl}}\n',
    ),
    // bodyHtml is markdown-it's output (raw HTML in the update escaped by it), hence the triple braces.
    html: htmlOf(
      layout(
        '<p style="color:#666">{{#if pageUrl}}<a href="{{pageUrl}}" style="color:#666">{{pageName}}</a>{{else}}{{pageName}}{{/if}}</p><h2>{{incidentName}}</h2><p>Status: <strong>{{status}}</strong></p><div>{{{bodyHtml}}}</div>' +
          '{{#if incidentUrl}}<p><a href="{{incidentUrl}}">Follow the incident</a></p>{{/if}}',
      ),
    ),
  },
};

/** Subjects carry user text (page, check and incident names): one line, at most this many characters. */
export const MAX_SUBJECT_CHARS = 200;

export function boundedSubject(subject: string): string {
  // eslint-disable-next-line no-control-regex
  const line = subject.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUBJECT_CHARS ? `${line.slice(0, MAX_SUBJECT_CHARS - 1)}…` : line;
}

export function renderEmail(kind: keyof typeof TEMPLATES, rawSubject: string, context: Record<string, unknown>): RenderedEmail {
  const t = TEMPLATES[kind];
  const subject = boundedSubject(rawSubject);
  const full = { unsubscribeUrl: null, link: null, output: null, checkId: null, ...context, subject };
  return { subject, text: t.text(full), html: t.html(full) };
}
