import { ValidationError } from '../../../core/src/errors';
import { parseMonitorBody } from './monitor-body';
import { CheckType } from './monitor-config';

function problems(type: CheckType, body: unknown): string[] {
  try {
    parseMonitorBody(type, body);
  } catch (error) {
    if (error instanceof ValidationError) return error.details.map((d) => d.path);
    throw error;
  }
  return [];
}

describe('monitor bodies', () => {
  it('reads a URL monitor as the checkly construct synthesizes it, with defaults', () => {
    const config = parseMonitorBody('URL', {
      name: 'Site', checkType: 'URL', activated: true, muted: false, shouldFail: false, locations: ['local'], tags: ['web'], frequency: 0, frequencyOffset: 10,
      groupId: null, retryStrategy: null, doubleCheck: false, request: { url: 'https://example.com', method: 'GET', followRedirects: true, skipSSL: false, assertions: [{ source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200', regex: null }] },
      degradedResponseTime: 3000, maxResponseTime: 5000,
    });
    expect(config).toMatchObject({ checkType: 'URL', frequency: 0, frequencyOffset: 10, retryStrategy: null, locations: ['local'], degradedResponseTime: 3000 });
    expect(parseMonitorBody('DNS', { name: 'd', request: { recordType: 'A', query: 'example.com' } }).request).toMatchObject({ port: 53, protocol: 'UDP', nameServer: null });
    expect(parseMonitorBody('TCP', { name: 't', request: { hostname: '10.0.0.1', port: 22 }, retryStrategy: { type: 'LINEAR' } }).retryStrategy).toEqual({
      type: 'LINEAR', baseBackoffSeconds: 60, maxRetries: 2, maxDurationSeconds: 600, sameRegion: true, onlyOn: null,
    });
  });

  it.each<[CheckType, unknown, string[]]>([
    ['URL', null, ['']],
    ['URL', { request: { url: 'https://e.com' } }, ['name']],
    ['URL', { name: 'x', request: { url: 'ftp://e.com' } }, ['request.url']],
    ['URL', { name: 'x', request: { url: 'https://u:p@e.com' } }, ['request.url']],
    ['URL', { name: 'x', request: { url: 'https://e.com', method: 'POST' } }, ['request.method']],
    ['URL', { name: 'x', frequency: 0, request: { url: 'https://e.com' } }, ['frequencyOffset']],
    ['URL', { name: 'x', frequency: 1441, request: { url: 'https://e.com' } }, ['frequency']],
    ['URL', { name: 'x', frequency: 1.5, request: { url: 'https://e.com' } }, ['frequency']],
    ['URL', { name: 'x', degradedResponseTime: 6000, maxResponseTime: 5000, request: { url: 'https://e.com' } }, ['degradedResponseTime']],
    ['URL', { name: 'x', request: { url: 'https://e.com', assertions: [{ source: 'JSON_BODY', comparison: 'EQUALS', target: '1' }] } }, ['request.assertions[0].source']],
    ['API', { name: 'x', request: { url: 'https://e.com', assertions: [{ source: 'HEADERS', comparison: 'SIMILAR', target: '1' }] } }, ['request.assertions[0].comparison']],
    ['API', { name: 'x', request: { url: 'https://e.com', assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'a', regex: '(' }] } }, ['request.assertions[0].regex']],
    ['API', { name: 'x', localSetupScript: 'console.log(1)', request: { url: 'https://e.com' } }, ['localSetupScript']],
    ['API', { name: 'x', tearDownScript: { content: 'x' }, request: { url: 'https://e.com' } }, ['tearDownScript']],
    ['API', { name: 'x', request: { url: 'https://e.com', method: 'TRACE', headers: [{ key: 'a' }] } }, ['request.method', 'request.headers[0]']],
    ['API', { name: 'x', request: { url: 'https://e.com', headers: [{ key: 'a', value: 'b\r\nc' }] } }, ['request.headers[0]']],
    ['TCP', { name: 'x', request: { hostname: 'e.com:22', port: 22 } }, ['request.hostname']],
    ['TCP', { name: 'x', request: { hostname: 'e.com', port: 70000 } }, ['request.port']],
    ['TCP', { name: 'x', maxResponseTime: 6000, request: { hostname: 'e.com', port: 1 } }, ['maxResponseTime']],
    ['DNS', { name: 'x', request: { recordType: 'PTR', query: 'e.com' } }, ['request.recordType']],
    ['DNS', { name: 'x', request: { recordType: 'A', query: 'e.com', nameServer: '1.1.1.1:53', protocol: 'QUIC' } }, ['request.nameServer', 'request.protocol']],
    ['SSL', { name: 'x', request: { sslConfig: { hostname: 'https://e.com', alertDaysBeforeExpiry: 400 } } }, ['request.sslConfig.hostname', 'request.sslConfig.alertDaysBeforeExpiry']],
    ['SSL', { name: 'x', request: {} }, ['request.sslConfig']],
    ['URL', { name: 'x', checkType: 'API', request: { url: 'https://e.com' } }, ['checkType']],
    ['URL', { name: 'x', retryStrategy: { type: 'SOMETIMES', maxRetries: 11 }, request: { url: 'https://e.com' } }, ['retryStrategy.type', 'retryStrategy.maxRetries']],
    ['URL', { name: 'x', locations: ['Local Place'], tags: [''], request: { url: 'https://e.com' } }, ['tags[0]', 'locations[0]']],
  ])('%s %j → 400 naming %j', (type, body, paths) => {
    expect(problems(type, body)).toEqual(paths);
  });
});
