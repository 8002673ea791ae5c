import { Feed } from 'feed';
import { incidentDate, IncidentView } from '../../../incidents/src/incidents.api';
import { StatusPageDetailView } from '../../../status-pages/src/status-pages.api';
import { timeText, statusWord } from './formatting';
import { Markdown, plainText } from './markdown';
import { xmlSafe } from './xml-text';

/** xml-js turns "&amp;" in a text node back into "&" before escaping it: undo that in advance, so the text arrives as written. */
const xmlText = (text: string) => xmlSafe(text).replace(/&amp;/g, '&amp;amp;');
/** Atom marks titles and summaries type="html" and RSS readers treat them alike: user text is escaped as HTML. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const asHtml = (text: string) => xmlSafe(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** The incident history as RSS 2.0 and Atom 1.0: one entry per incident, its updates newest first. */
export function incidentFeed(md: Markdown, page: StatusPageDetailView, pageUrl: string, incidents: IncidentView[], now: Date): Feed {
  const updated = incidents.reduce((at, i) => (i.updated_at > at ? i.updated_at : at), page.updated_at);
  const feed = new Feed({
    title: xmlText(`${page.name} – incident history`),
    description: xmlText(page.description ?? `Incidents of ${page.name}`),
    id: pageUrl,
    link: pageUrl,
    language: 'en',
    copyright: '',
    updated: new Date(updated || now.toISOString()),
    generator: 'Vigil',
    feedLinks: { rss: `${pageUrl}/history.rss`, atom: `${pageUrl}/history.atom` },
  });
  for (const incident of incidents) {
    const updates = [...incident.incidentUpdates].reverse();
    const link = `${pageUrl}/incidents/${incident.id}`;
    feed.addItem({
      title: asHtml(incident.name),
      id: link,
      link,
      date: new Date(incident.updated_at),
      published: new Date(incidentDate(incident)),
      description: asHtml(updates.map((u) => `${statusWord(u.status)} – ${plainText(md, u.description)}`).join(' | ')),
      // xml-js splits only the first ']]>' of a CDATA section; none is left for it to miss.
      content: xmlSafe(updates.map((u) => `<p><strong>${statusWord(u.status)}</strong> – ${timeText(u.publicIncidentUpdateDate)}</p>${md.render(u.description)}`).join('')).replaceAll(']]>', ']]&gt;'),
    });
  }
  return feed;
}
