import { blankChannel, channelBody, fieldErrors, forgetTypedSecrets, readChannelForm } from './channel-form';

describe('the alert channel form', () => {
  it('turns header and query lines into the API pairs, and names a line without its separator', () => {
    const values = readChannelForm('WEBHOOK', { name: 'hook', url: 'https://example.com/h', method: 'POST', webhookType: 'WEBHOOK', headers: 'Authorization: Bearer a:b\r\n\r\nX-Team: ops', queryParameters: 'a=1=2\nbroken', sslExpiryThreshold: '' });
    const { body, errors } = channelBody(values);
    expect(body.config).toMatchObject({ headers: [{ key: 'Authorization', value: 'Bearer a:b' }, { key: 'X-Team', value: 'ops' }], queryParameters: [{ key: 'a', value: '1=2' }], template: null, webhookSecret: null });
    expect(body.sslExpiryThreshold).toBe(30);
    expect(errors).toEqual({ queryParameters: 'Line 2: write one per line as name=value.' });
  });

  it('reads unticked boxes as false and ticked checks by id', () => {
    const values = readChannelForm('EMAIL', { address: 'a@example.com', sendFailure: 'on', 'check-ABC': 'on', 'check-def': 'off' });
    expect(values.flags).toEqual({ sendFailure: true, sendRecovery: false, sendDegraded: false, sslExpiry: false });
    expect(values.checks).toEqual(['abc']);
  });

  it('puts the API problems beside their fields', () => {
    expect(fieldErrors([{ path: 'config.headers[1].key', message: 'key must be a token' }, { path: 'config.account', message: 'x' }, { path: '', message: 'expected a JSON object' }])).toEqual({ headers: 'Key must be a token.', pdAccount: 'X.', type: 'Expected a JSON object.' });
  });

  it('never shows a typed secret again, but keeps the mask of a stored one', () => {
    const values = blankChannel('OPSGENIE');
    values.text.apiKey = 'typed-key';
    values.text.webhookSecret = '********abcd';
    const errors = {};
    const again = forgetTypedSecrets(values, errors);
    expect([again.text.apiKey, again.text.webhookSecret]).toEqual(['', '********abcd']);
    expect(Object.keys(errors)).toEqual(['apiKey']);
  });
});
