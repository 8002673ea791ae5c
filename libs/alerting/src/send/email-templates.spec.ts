import { boundedSubject, MAX_SUBJECT_CHARS, renderEmail } from './email-templates';

describe('email subjects', () => {
  it('are one line and bounded, whatever the names in them', () => {
    const long = renderEmail('incident', `[${'P'.repeat(300)}] ${'I'.repeat(5000)}: Identified`, { pageName: 'p', incidentName: 'i', status: 'Identified', body: '', bodyHtml: '', unsubscribeUrl: 'u' });
    expect(long.subject.length).toBe(MAX_SUBJECT_CHARS);
    expect(long.subject.endsWith('…')).toBe(true);
    expect(boundedSubject('Confirm\r\nBcc: victim@example.com\u2028x')).toBe('Confirm Bcc: victim@example.com x');
    expect(boundedSubject('  short  ')).toBe('short');
  });

  it('an alert email escapes the output in HTML and keeps it in the text part', () => {
    const mail = renderEmail('checkAlert', 'job reported a failure', { title: 't', summary: 's', checkName: '<job>', checkId: 'id-1', output: '<b>boom</b> & more', link: 'https://vigil.example.com/console/checks/id-1' });
    expect(mail.html).toContain('<pre');
    expect(mail.html).toContain('&lt;b&gt;boom&lt;/b&gt; &amp; more');
    expect(mail.html).toContain('&lt;job&gt;');
    expect(mail.text).toContain('Output (first lines):\n<b>boom</b> & more');
    expect(mail.text).toContain('Open the check: https://vigil.example.com/console/checks/id-1');
  });
});
