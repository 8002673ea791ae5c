import { Assertion, DnsRequestConfig, HttpRequestConfig, MonitorConfig, SslRequestConfig, TcpRequestConfig } from '../domain/monitor-config';
import { RunOutcome, RunTimings } from '../domain/round';
import { failingAssertion } from './assertions';
import { dnsProbe } from './dns-probe';
import { httpProbe } from './http-probe';
import { ProbeObservation } from './probe';
import { sslProbe } from './ssl-probe';
import { tcpProbe } from './tcp-probe';

export interface ProbeVerdict {
  outcome: RunOutcome;
  timings: RunTimings;
  error: string | null;
  networkError: boolean;
}

/** What is asserted when the monitor asserts nothing about the answer itself. */
function defaults(config: MonitorConfig): Assertion[] {
  const own = config.request.assertions;
  const has = (source: string) => own.some((a) => a.source === source);
  if ((config.checkType === 'URL' || config.checkType === 'API') && !has('STATUS_CODE')) return [{ source: 'STATUS_CODE', property: '', comparison: 'LESS_THAN', target: '400', regex: null }];
  if (config.checkType === 'DNS' && !has('RESPONSE_CODE')) return [{ source: 'RESPONSE_CODE', property: '', comparison: 'EQUALS', target: 'NOERROR', regex: null }];
  return [];
}

function observe(config: MonitorConfig, allowPrivate: boolean, now: Date): Promise<ProbeObservation> {
  // The deadline is the monitor's maxResponseTime: slower than that is a failure anyway.
  const limits = { deadlineMs: Math.max(100, config.maxResponseTime), allowPrivate };
  switch (config.checkType) {
    case 'URL':
    case 'API':
      return httpProbe(config.request as HttpRequestConfig, limits);
    case 'TCP':
      return tcpProbe(config.request as TcpRequestConfig, limits);
    case 'DNS':
      return dnsProbe(config.request as DnsRequestConfig, limits);
    case 'SSL':
      return sslProbe(config.request as SslRequestConfig, limits, now);
  }
}

/** Runs a monitor's probe once and judges it: an error or a failed assertion or over maxResponseTime fails; over degradedResponseTime degrades. */
export async function runProbe(config: MonitorConfig, allowPrivate: boolean, now: Date): Promise<ProbeVerdict> {
  const seen = await observe(config, allowPrivate, now);
  const base = { timings: seen.timings, networkError: seen.networkError };
  if (seen.error !== null) return { ...base, outcome: 'FAIL', error: seen.error };
  const assertionError = failingAssertion([...defaults(config), ...config.request.assertions], seen.facts);
  if (assertionError !== null) return { ...base, outcome: 'FAIL', error: assertionError };
  if (seen.timings.total > config.maxResponseTime) return { ...base, outcome: 'FAIL', error: `slower than maxResponseTime (${seen.timings.total} ms > ${config.maxResponseTime} ms)` };
  if (seen.timings.total > config.degradedResponseTime) return { ...base, outcome: 'DEGRADED', error: null };
  return { ...base, outcome: 'PASS', error: null };
}
