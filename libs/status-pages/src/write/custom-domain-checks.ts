import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { createHmac, randomBytes } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { get } from 'node:http';
import { outboundUrlProblem } from '../../../core/src/outbound-address';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore, SETTINGS } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { oldestFirst } from '../read/by-creation';
import { statusPagesProjection } from '../read/status-pages.projection';
import { RunStatusPageCommand } from './status-page.handler';

/** How an owner proves a custom domain, and what Vigil looks for. */
export interface DomainProofInstructions {
  dns: { type: 'TXT'; name: string; value: string };
  http: { url: string; body: string };
}

/** Every verified domain is checked again this often; one still unproven, more often. */
export const RECHECK_VERIFIED_MS = 6 * 3_600_000;
export const RECHECK_PENDING_MS = 10 * 60_000;
const TIMEOUT_MS = 5_000;
const MAX_BODY = 1024;
const ACTOR = { accountId: null, keyId: null, keyName: 'custom domain check', requestId: null };

/**
 * Custom domains serve a page only once its owner has proven the domain: a TXT record
 * `_vigil-challenge.<domain>` holding `vigil-domain-verification=<token>`, or the token as the body of
 * `http://<domain>/.well-known/vigil-domain-verification`. The token is an HMAC of the page and the domain
 * under a key kept in the read store, so every instance agrees on it. Checks run on demand and periodically;
 * each outcome goes through the page's command handler, so a lost proof takes the domain away again.
 */
@Injectable()
export class CustomDomainChecks implements OnModuleInit, OnModuleDestroy {
  /** Where the HTTP check connects for a domain (its port 80 unless told otherwise). */
  httpTarget: (domain: string) => { host: string; port: number } = (domain) => ({ host: domain, port: 80 });
  private key: Promise<Buffer> | null = null;
  /** The system's resolver, or the name servers of VIGIL_DNS_SERVERS. */
  private readonly resolver = new dns.Resolver({ timeout: TIMEOUT_MS, tries: 2 });
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly commands: CommandBus,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.dnsServers.length > 0) this.resolver.setServers(this.config.dnsServers);
    this.timer = setInterval(() => void this.recheckAll().catch(() => undefined), RECHECK_PENDING_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async instructions(statusPageId: string, domain: string): Promise<DomainProofInstructions> {
    const token = await this.token(statusPageId, domain);
    return {
      dns: { type: 'TXT', name: `_vigil-challenge.${domain.toLowerCase()}`, value: `vigil-domain-verification=${token}` },
      http: { url: `http://${domain.toLowerCase()}/.well-known/vigil-domain-verification`, body: token },
    };
  }

  /** Checks the domain now and records the outcome on the page; the proof found, or null. */
  async check(statusPageId: string, domain: string): Promise<'dns' | 'http' | null> {
    const proof = await this.findProof(statusPageId, domain);
    await this.commands.execute(new RunStatusPageCommand({ type: 'RecordDomainCheck', id: statusPageId, domain, proof }, ACTOR));
    return proof;
  }

  /** Pages with a custom domain: unproven ones at every pass, verified ones every RECHECK_VERIFIED_MS. */
  private async recheckAll(): Promise<void> {
    const verifiedTurn = Math.floor(Date.now() / RECHECK_PENDING_MS) % Math.round(RECHECK_VERIFIED_MS / RECHECK_PENDING_MS) === 0;
    for await (const doc of oldestFirst(this.store, this.engine.collection(statusPagesProjection), [])) {
      if (doc.customDomain && (!doc.customDomainVerified || verifiedTurn)) await this.check(doc.id, doc.customDomain).catch(() => undefined);
    }
  }

  private async findProof(statusPageId: string, domain: string): Promise<'dns' | 'http' | null> {
    const expected = await this.instructions(statusPageId, domain);
    const records = await this.resolver.resolveTxt(expected.dns.name).catch(() => [] as string[][]);
    if (records.some((chunks) => chunks.join('') === expected.dns.value)) return 'dns';
    if (outboundUrlProblem(expected.http.url, { allowPrivate: this.config.outboundAllowPrivate }) !== null) return null;
    const body = await this.fetchToken(domain).catch(() => null);
    return body !== null && body.trim() === expected.http.body ? 'http' : null;
  }

  private fetchToken(domain: string): Promise<string | null> {
    const { host, port } = this.httpTarget(domain);
    return new Promise((resolve, reject) => {
      const req = get({ host, port, path: '/.well-known/vigil-domain-verification', headers: { host: domain }, timeout: TIMEOUT_MS }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return resolve(null);
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > MAX_BODY) req.destroy(new Error('too large'));
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
    });
  }

  private async token(statusPageId: string, domain: string): Promise<string> {
    this.key ??= this.loadKey();
    return createHmac('sha256', await this.key).update(`custom-domain:${statusPageId}:${domain.toLowerCase()}`).digest('base64url');
  }

  private async loadKey(): Promise<Buffer> {
    // Insert-if-absent (revision 1 never beats itself), so racing instances agree on one key.
    await this.store.ensureCollection({ name: SETTINGS, indexes: [] });
    await this.store.put(SETTINGS, { id: 'custom-domain-secret', value: randomBytes(32).toString('base64') }, 1n);
    const stored = await this.store.get(SETTINGS, 'custom-domain-secret');
    return Buffer.from(stored!.doc.value, 'base64');
  }
}
