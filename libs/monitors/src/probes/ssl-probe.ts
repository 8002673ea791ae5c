import tls from 'node:tls';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';
import { SslRequestConfig } from '../domain/monitor-config';
import { expiringWords } from '../domain/certificate-expiry';
import { RunTimings } from '../domain/round';
import { guardedLookup, PRIVATE_CODE, PRIVATE_MESSAGE } from './guarded-lookup';
import { failed, isNetworkCode, ProbeLimits, ProbeObservation, since } from './probe';

const DAY_MS = 86_400_000;

/**
 * SSL monitors: a TLS handshake with the host, the chain validated unless told not to, the leaf certificate
 * read. It fails on a broken chain, an expired certificate, or one expiring within `alertDaysBeforeExpiry`.
 */
export function sslProbe(config: SslRequestConfig, limits: ProbeLimits, now: Date): Promise<ProbeObservation> {
  const start = performance.now();
  const literal = literalAddress(config.hostname);
  if (!limits.allowPrivate && literal !== null && !isPublicAddress(literal)) return Promise.resolve(failed(PRIVATE_MESSAGE, false, 0));
  const serverName = config.serverName ?? (literal === null ? config.hostname : undefined);
  return new Promise((resolve) => {
    const timings: Partial<RunTimings> = {};
    let settled = false;
    const socket = tls.connect({
      host: literal ?? config.hostname,
      port: config.port,
      servername: serverName,
      // Validated by hand below, so that an invalid chain is described rather than only refused.
      rejectUnauthorized: false,
      lookup: guardedLookup(limits.allowPrivate),
    });
    const finish = (observation: ProbeObservation) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve(observation);
    };
    const deadline = setTimeout(() => finish(failed(`timed out after ${limits.deadlineMs} ms`, true, since(start), timings)), limits.deadlineMs);
    socket.once('lookup', () => (timings.dns = since(start)));
    socket.once('connect', () => (timings.connect = since(start)));
    socket.once('secureConnect', () => {
      timings.tls = since(start);
      const total = since(start);
      const cert = socket.getPeerCertificate(false);
      if (!cert || !cert.valid_to) return finish(failed('no certificate presented', false, total, timings));
      const expiresAt = new Date(cert.valid_to);
      const daysRemaining = Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);
      const certificate = {
        subject: cert.subject,
        issuer: cert.issuer,
        validFrom: new Date(cert.valid_from).toISOString(),
        validTo: expiresAt.toISOString(),
        daysRemaining,
        serialNumber: cert.serialNumber,
        fingerprint256: cert.fingerprint256,
        subjectAltName: cert.subjectaltname ?? null,
      };
      const facts = { CERTIFICATE: certificate, CONNECTION: { protocol: socket.getProtocol(), cipher: socket.getCipher()?.name ?? null, authorized: socket.authorized }, RESPONSE_TIME: total };
      let error: string | null = null;
      if (!config.skipChainValidation && !socket.authorized) error = `certificate chain invalid: ${String(socket.authorizationError)}`;
      else if (!config.skipChainValidation && serverName !== undefined) {
        const mismatch = tls.checkServerIdentity(serverName, cert);
        if (mismatch) error = `certificate does not match ${serverName}`;
      }
      if (error === null && expiresAt.getTime() <= now.getTime()) error = `certificate expired on ${certificate.validTo}`;
      else if (error === null && daysRemaining < config.alertDaysBeforeExpiry) error = expiringWords(daysRemaining, config.alertDaysBeforeExpiry);
      finish({ timings: { ...timings, total }, error, networkError: false, facts });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === PRIVATE_CODE) return finish(failed(PRIVATE_MESSAGE, false, since(start), timings));
      finish(failed(`TLS connection failed: ${e.code ?? e.message}`, isNetworkCode(e.code), since(start), timings));
    });
  });
}
