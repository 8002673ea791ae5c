import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DeliveryError } from './delivery-error';
import { sendOutbound, UNREACHABLE_NAME } from './outbound-http';
import { PRIVATE_TARGET_PROBLEM, resolvedTargetProblems, targetUrlProblem } from './target-check';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('outbound delivery errors', () => {
  let server: Server;
  let received = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  it('fails for good, without sending, a header value that can never go on the wire', async () => {
    const error = await failure(sendOutbound({ url: url(), method: 'POST', headers: { 'x-team': 'Ops € team' }, body: '{}' }, 2000, true));
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).retryable).toBe(false);
    expect(received).toBe(0);
    await sendOutbound({ url: url(), method: 'POST', headers: { 'x-team': 'Ops team' }, body: '{}' }, 2000, true);
    expect(received).toBe(1);
  });

  it('says the same, once and for good, for a name that resolves inside and a name that does not exist', async () => {
    const inside = (await failure(sendOutbound({ url: 'http://localhost:9/hook', method: 'POST', headers: {}, body: '{}' }, 2000, false))) as DeliveryError;
    const missing = (await failure(sendOutbound({ url: 'http://no-such-host.invalid/hook', method: 'POST', headers: {}, body: '{}' }, 2000, false))) as DeliveryError;
    expect([inside.message, inside.retryable]).toEqual([UNREACHABLE_NAME, false]);
    expect([missing.message, missing.retryable]).toEqual([UNREACHABLE_NAME, false]);
  });
});

describe('private targets at save', () => {
  it('refuses a name that resolves to a private address as it refuses the address, naming the setting', async () => {
    expect(targetUrlProblem('http://127.0.0.1/hook', { allowPrivate: false })).toBe(PRIVATE_TARGET_PROBLEM);
    expect(PRIVATE_TARGET_PROBLEM).toContain('VIGIL_OUTBOUND_ALLOW_PRIVATE');
    expect(await resolvedTargetProblems({ url: 'http://localhost:8080/hook' }, { allowPrivate: false })).toEqual([{ path: 'config.url', message: PRIVATE_TARGET_PROBLEM }]);
    expect(await resolvedTargetProblems({ url: 'http://localhost:8080/hook' }, { allowPrivate: true })).toEqual([]);
    expect(await resolvedTargetProblems({ url: 'http://no-such-host.invalid/hook' }, { allowPrivate: false })).toEqual([]);
    expect(targetUrlProblem('ftp://example.com/', { allowPrivate: false })).toBe('must be an http or https URL');
  });
});
