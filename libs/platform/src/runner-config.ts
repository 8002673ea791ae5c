import { ConfigError } from './config';

/** The runner app's settings (apps/runner), from its environment; it needs none of the server's. */
export interface RunnerConfig {
  /** The Vigil API the runner leases from and reports to, http(s)://host[:port]. */
  apiUrl: string;
  runnerKey: string;
  location: string;
  /** Private targets allowed whatever the key says. */
  outboundAllowPrivate: boolean;
  /** Probes at once; a due run waits for a free one. */
  concurrency: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export function loadRunnerConfig(env: Record<string, string | undefined> = process.env): RunnerConfig {
  const value = (name: string) => {
    const v = env[name]?.trim();
    if (!v) throw new ConfigError(name, 'is required');
    return v;
  };
  const apiUrl = value('VIGIL_API_URL').replace(/\/+$/, '');
  if (!URL.canParse(apiUrl) || !['http:', 'https:'].includes(new URL(apiUrl).protocol)) throw new ConfigError('VIGIL_API_URL', 'must be an http(s) URL');
  const location = value('VIGIL_RUNNER_LOCATION');
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(location)) throw new ConfigError('VIGIL_RUNNER_LOCATION', 'must be 1 to 63 lowercase letters, digits and dashes');
  const allow = (env.VIGIL_OUTBOUND_ALLOW_PRIVATE ?? 'false').trim().toLowerCase();
  if (allow !== 'true' && allow !== 'false') throw new ConfigError('VIGIL_OUTBOUND_ALLOW_PRIVATE', 'must be "true" or "false"');
  const concurrency = Number(env.VIGIL_RUNNER_CONCURRENCY ?? '1000');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 20_000) throw new ConfigError('VIGIL_RUNNER_CONCURRENCY', 'must be a whole number from 1 to 20000');
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new ConfigError('LOG_LEVEL', 'must be debug, info, warn or error');
  return { apiUrl, runnerKey: value('VIGIL_RUNNER_KEY'), location, outboundAllowPrivate: allow === 'true', concurrency, logLevel: logLevel as RunnerConfig['logLevel'] };
}
