import { alertOutput, alertSummary, alertText, alertTitle, CheckAlert, checkLink, failureCause, outputExcerpt, slackText } from './alert-message';

const base: CheckAlert = {
  alertType: 'ALERT_FAILURE',
  checkId: '01900000-0000-7000-8000-000000000001',
  checkName: 'nightly-backup',
  tags: [],
  outageId: 'e1',
  startedAt: '2026-07-01T12:00:30.000Z',
  at: '2026-07-01T12:00:30.000Z',
  downtimeSeconds: null,
};

describe('alert messages say what happened', () => {
  it('a reported failure: exit code and output; without a code, just the failure', () => {
    const alert = { ...base, cause: failureCause({ signal: true, exitCode: 2, body: 'tar: /data: Cannot open\nexit 2\n' }) };
    expect(alertTitle(alert)).toBe('nightly-backup reported a failure (exit code 2)');
    expect(alertSummary(alert)).toBe('Heartbeat check "nightly-backup" reported a failure (exit code 2) at 1 Jul 2026, 12:00:30 UTC.');
    expect(alertText(alert)).toBe(`${alertSummary(alert)}\n\nOutput (first lines):\ntar: /data: Cannot open\nexit 2`);
    const bare = { ...base, cause: failureCause({ signal: true }) };
    expect(alertTitle(bare)).toBe('nightly-backup reported a failure');
    expect(alertOutput(bare)).toBeNull();
  });

  it('a started run with no finish, and a missed deadline (also for alerts stored without a cause)', () => {
    const run = { ...base, cause: failureCause({ runStartedAt: '2026-07-01T11:59:30.000Z' }) };
    expect(alertSummary(run)).toBe('Heartbeat check "nightly-backup" started a run at 1 Jul 2026, 11:59:30 UTC that did not finish by 1 Jul 2026, 12:00:30 UTC.');
    expect(alertTitle({ ...base, cause: failureCause({}) })).toBe('nightly-backup missed its deadline');
    expect(alertTitle(base)).toBe('nightly-backup missed its deadline');
  });

  it('a reminder repeats the cause; a recovery names the downtime and carries no output', () => {
    const cause = failureCause({ signal: true, exitCode: 1, body: 'boom' });
    expect(alertSummary({ ...base, alertType: 'ALERT_REMINDER', at: '2026-07-01T12:05:30.000Z', cause })).toBe(
      'Heartbeat check "nightly-backup" has been failing since 1 Jul 2026, 12:00:30 UTC; it first reported a failure (exit code 1) at 1 Jul 2026, 12:00:30 UTC.',
    );
    const recovery = { ...base, alertType: 'ALERT_RECOVERY' as const, at: '2026-07-01T13:02:35.000Z', downtimeSeconds: 3725, cause };
    expect(alertSummary(recovery)).toBe('Heartbeat check "nightly-backup" recovered at 1 Jul 2026, 13:02:35 UTC after 1 h 2 min 5 s of downtime (failing since 1 Jul 2026, 12:00:30 UTC).');
    expect(alertOutput(recovery)).toBeNull();
  });

  it('output is bounded in lines, line length and size, without control characters', () => {
    const many = outputExcerpt(Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    expect(many.output!.split('\n')).toHaveLength(10);
    expect(many.cut).toBe(true);
    const wide = outputExcerpt('x'.repeat(5000));
    expect(wide.output!.length).toBe(200);
    const big = outputExcerpt(Array.from({ length: 10 }, () => 'y'.repeat(199)).join('\n'));
    expect(big.output!.length).toBeLessThanOrEqual(1000);
    expect(outputExcerpt('a\u0000b\u001b[31mc\r\nd').output).toBe('ab[31mc\nd');
    expect(outputExcerpt(' \n\t\n').output).toBeNull();
    // A body Vigil already cut at 10,000 bytes says so.
    expect(alertOutput({ ...base, cause: failureCause({ signal: true, body: 'short', truncated: true }) })).toBe('short\n[…]');
  });

  it('Slack text escapes its control characters and cannot close the output block', () => {
    const alert = { ...base, checkName: '<!channel> job', cause: failureCause({ signal: true, exitCode: 1, body: '```\n<@U123> & <https://evil|click>' }) };
    const text = slackText(alert);
    expect(text).not.toMatch(/<[!@h]/);
    expect(text).toContain('*&lt;!channel&gt; job reported a failure (exit code 1)*');
    expect(text).toContain('&lt;@U123&gt; &amp; &lt;https://evil|click&gt;');
    expect(text.match(/```/g)).toHaveLength(2);
  });

  it('links lead to a page a person can open, never the JSON API', () => {
    expect(checkLink('https://vigil.example.com', base.checkId)).toBe(`https://vigil.example.com/console/checks/${base.checkId}`);
    expect(checkLink('https://vigil.example.com', null)).toBe('https://vigil.example.com/console/checks');
    expect(checkLink('https://vigil.example.com', base.checkId)).not.toContain('/v1/');
  });
});
