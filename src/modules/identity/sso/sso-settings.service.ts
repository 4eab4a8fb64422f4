import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { lockForChange, updateVersioned } from '../../../platform/changes/versioned-change.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { SsoJitRole } from '../../../platform/db/tables/sso.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { invalidState, notFound, validationError } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../../platform/http/pagination.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../../platform/versions/resource-state.js';
import { requireDomainAttestation, requireSsoAdmin } from '../integrations.policy.js';
import { OidcFailure, type OidcClients } from './oidc-client.js';
import { importMetadata, requireFieldsOf, samlColumns } from './connection-protocol.js';
import type { SamlClients } from './saml-client.js';
import { summarizeCertificate } from './saml-metadata.js';
import type { CreateSsoConnectionBody, CreateSsoDomainBody, SsoConnectionView, SsoDomainView, SsoListQuery, UpdateSsoConnectionBody } from './sso-settings.schemas.js';
import * as repo from './sso.repository.js';

/** Looks up the TXT records at a name (node:dns by default; tests hand in their own). */
export type TxtResolver = (name: string) => Promise<string[][]>;

export interface SsoSettingsDeps {
  db: Executor;
  oidc: OidcClients;
  /** Where the provider sends the browser back: PUBLIC_URL + /auth/v1/sso/callback. */
  redirectUri: string;
  /** This service's SAML SP values, shown with a SAML connection to enter at the IdP. */
  samlSp: SamlClients['sp'];
  resolveTxt?: TxtResolver;
  /** AUTH_MODE=embedded: the service signs people in through the connections; with an external provider, none are kept. */
  signsIn: boolean;
}

/** Where the provider sends the browser back, below PUBLIC_URL (the embedded provider's /auth/v1). */
export const SSO_CALLBACK_PATH = '/auth/v1/sso/callback';

/** The DNS name and value that prove a domain (decisions.md, "Single sign-on"). */
export const VERIFICATION_PREFIX = '_risk-assurance-challenge';
export const verificationRecord = (domain: string, token: string) => ({
  record_name: `${VERIFICATION_PREFIX}.${domain}`,
  record_value: `risk-assurance-domain-verification=${token}`,
});

/** Whether the TXT records published at the domain's verification name hold its token. */
export async function domainProven(resolveTxt: TxtResolver, domain: string, token: string): Promise<boolean> {
  const { record_name, record_value } = verificationRecord(domain, token);
  let records: string[][];
  try {
    records = await resolveTxt(record_name);
  } catch {
    return false;
  }
  // A long TXT record comes in chunks of 255 characters: joined, they are the value.
  return records.some((chunks) => chunks.join('') === record_value);
}

function systemResolver(): TxtResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  return (name) => resolver.resolveTxt(name);
}

const presentDomain = (row: repo.DomainRow): SsoDomainView => ({
  id: row.id,
  domain: row.domain,
  verified: row.verified_at !== null,
  verified_at: row.verified_at,
  verification: row.verified_at === null ? verificationRecord(row.domain, row.verification_token) : null,
  created_at: row.created_at,
});

const issuerRefused = (error: OidcFailure) => validationError([{ field: 'issuer', message: error.message }]);

/** The enterprise's SSO connections and e-mail domains (client admins, in person; a super admin attests a domain). */
export function createSsoSettingsService({ db, oidc, redirectUri, samlSp, signsIn, resolveTxt = systemResolver() }: SsoSettingsDeps) {
  const presentConnection = (row: repo.ConnectionRow): SsoConnectionView => ({
    id: row.id,
    type: row.type,
    name: row.name,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.type === 'oidc',
    scopes: row.scopes,
    enforce_sso: row.enforce_sso,
    jit_role: row.jit_role,
    redirect_uri: redirectUri,
    saml:
      row.type === 'saml'
        ? {
            idp_entity_id: row.idp_entity_id ?? '',
            idp_sso_url: row.idp_sso_url ?? '',
            idp_certificates: (row.idp_certificates ?? []).map(summarizeCertificate),
            sp_entity_id: samlSp.entityId,
            acs_url: samlSp.acsUrl,
            metadata_url: samlSp.metadataUrl,
          }
        : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
  const answerConnection = (row: repo.ConnectionRow): Versioned<SsoConnectionView> => versioned(presentConnection(row), versionState(row.row_version));

  /** A provider that cannot be discovered is refused before it is kept (422 on `issuer`). */
  async function requireDiscoverable(issuer: string, clientId: string, clientSecret: string): Promise<void> {
    try {
      await oidc.discover(issuer, clientId, clientSecret);
    } catch (error) {
      if (error instanceof OidcFailure) throw issuerRefused(error);
      throw error;
    }
  }

  const oneConnection = (trx: Parameters<typeof repo.lockConnection>[0], enterpriseId: string, id: string) => ({
    noun: 'SSO connection',
    lock: () => repo.lockConnection(trx, enterpriseId, id),
  });

  return {
    async listConnections(caller: Caller, query: SsoListQuery) {
      requireSsoAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const page = await loadPage(pageRequest(query), () => repo.countConnections(db, enterpriseId), (limit, offset) => repo.listConnections(db, enterpriseId, limit, offset));
      return { ...page, data: page.data.map(presentConnection) };
    },

    async getConnection(caller: Caller, id: string): Promise<Versioned<SsoConnectionView>> {
      requireSsoAdmin(caller);
      const row = await repo.findConnection(db, caller.enterpriseId, id);
      if (row === undefined) throw notFound('SSO connection');
      return answerConnection(row);
    },

    /** The audit entry names the connection and its settings; never the secret. */
    async createConnection(caller: Caller, body: CreateSsoConnectionBody, terms: ChangeTerms): Promise<SsoConnectionView> {
      requireSsoAdmin(caller);
      if (!signsIn) throw invalidState('SSO connections need AUTH_MODE=embedded: with an external identity provider, single sign-on is configured there');
      const type = body.type ?? 'oidc';
      requireFieldsOf(type, body, true);
      const protocol =
        type === 'saml'
          ? { type, ...samlColumns(importMetadata(body.idp_metadata_xml ?? ''), body.idp_metadata_xml ?? '') }
          : { type, issuer: body.issuer ?? '', client_id: body.client_id ?? '', client_secret: body.client_secret ?? '' };
      if (protocol.type === 'oidc') await requireDiscoverable(protocol.issuer, protocol.client_id, protocol.client_secret);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const row = await repo.insertConnection(trx, caller.enterpriseId, {
          ...protocol,
          name: body.name.trim(),
          scopes: body.scopes ?? ['openid', 'email', 'profile'],
          enforce_sso: body.enforce_sso ?? false,
          jit_role: (body.jit_role ?? null) as SsoJitRole | null,
          created_by: caller.userId,
        });
        const settings = row.type === 'saml' ? { idp_entity_id: row.idp_entity_id, idp_sso_url: row.idp_sso_url } : { issuer: row.issuer, client_id: row.client_id, scopes: row.scopes };
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'sso_connection',
          entityId: row.id,
          details: { name: row.name, type: row.type, ...settings, enforce_sso: row.enforce_sso, jit_role: row.jit_role },
        });
        return presentConnection(row);
      });
    },

    async updateConnection(caller: Caller, id: string, body: UpdateSsoConnectionBody, terms: ChangeTerms): Promise<Versioned<SsoConnectionView>> {
      requireSsoAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const current = await repo.findConnection(db, enterpriseId, id);
      if (current === undefined) throw notFound('SSO connection');
      if (body.type !== undefined && body.type !== current.type) throw validationError([{ field: 'type', message: 'the protocol of a connection cannot change: create another connection' }]);
      requireFieldsOf(current.type, body, false);
      const imported = body.idp_metadata_xml === undefined ? null : samlColumns(importMetadata(body.idp_metadata_xml), body.idp_metadata_xml);
      // A new provider or client is discovered before the change (outside the transaction: it is a network call).
      if (body.issuer !== undefined || body.client_id !== undefined) {
        await requireDiscoverable(body.issuer ?? current.issuer ?? '', body.client_id ?? current.client_id ?? '', body.client_secret ?? 'unchanged');
      }
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          ...oneConnection(trx, enterpriseId, id),
          diff: (before) => {
            const changes: Partial<Record<'name' | 'issuer' | 'client_id' | 'client_secret' | 'scopes' | 'enforce_sso' | 'jit_role' | keyof NonNullable<typeof imported>, unknown>> = {};
            if (body.name !== undefined && body.name.trim() !== before.name) changes.name = body.name.trim();
            if (body.issuer !== undefined && body.issuer !== before.issuer) changes.issuer = body.issuer;
            if (body.client_id !== undefined && body.client_id !== before.client_id) changes.client_id = body.client_id;
            if (body.client_secret !== undefined) changes.client_secret = body.client_secret;
            if (body.scopes !== undefined && body.scopes.join(' ') !== before.scopes.join(' ')) changes.scopes = body.scopes;
            if (body.enforce_sso !== undefined && body.enforce_sso !== before.enforce_sso) changes.enforce_sso = body.enforce_sso;
            if (body.jit_role !== undefined && body.jit_role !== before.jit_role) changes.jit_role = body.jit_role;
            if (imported !== null) {
              if (imported.idp_entity_id !== before.idp_entity_id) changes.idp_entity_id = imported.idp_entity_id;
              if (imported.idp_sso_url !== before.idp_sso_url) changes.idp_sso_url = imported.idp_sso_url;
              if (imported.idp_certificates.join() !== (before.idp_certificates ?? []).join()) changes.idp_certificates = imported.idp_certificates;
              // The XML itself is kept with what it changed; the same metadata again is no change.
              if (Object.keys(changes).some((field) => field.startsWith('idp_'))) changes.idp_metadata_xml = imported.idp_metadata_xml;
            }
            return Object.keys(changes).length === 0 ? null : changes;
          },
          write: (_before, changes) => repo.updateConnection(trx, enterpriseId, id, changes as Parameters<typeof repo.updateConnection>[3]),
          audit: (before, _after, changes) => ({
            entityType: 'sso_connection',
            entityId: id,
            details: {
              name: before.name,
              changes: Object.fromEntries(
                Object.entries(changes).map(([field, to]) =>
                  field === 'client_secret' || field === 'idp_metadata_xml' || field === 'idp_certificates'
                    ? [field, 'replaced']
                    : [field, { from: before[field as keyof typeof before], to }],
                ),
              ),
            },
          }),
        });
        return answerConnection(row);
      });
    },

    async deleteConnection(caller: Caller, id: string, terms: ChangeTerms): Promise<void> {
      requireSsoAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const row = await lockForChange(oneConnection(trx, enterpriseId, id), terms);
        await repo.deleteConnection(trx, enterpriseId, id);
        await recordChange(trx, caller, { action: 'delete', entityType: 'sso_connection', entityId: id, details: { name: row.name, type: row.type, issuer: row.issuer ?? row.idp_entity_id } });
      });
    },

    async listDomains(caller: Caller, query: SsoListQuery) {
      requireSsoAdmin(caller);
      return domainsOf(caller.enterpriseId, query);
    },

    /** A super admin's view of an enterprise's claims: the domains they may attest (404: no such enterprise). */
    async listEnterpriseDomains(caller: Caller, enterpriseId: string, query: SsoListQuery) {
      requireDomainAttestation(caller);
      if (!(await repo.enterpriseExists(db, enterpriseId))) throw notFound('Enterprise');
      return domainsOf(enterpriseId, query);
    },

    async createDomain(caller: Caller, body: CreateSsoDomainBody, terms: ChangeTerms): Promise<SsoDomainView> {
      requireSsoAdmin(caller);
      const domain = body.domain.toLowerCase();
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const row = await repo.insertDomain(trx, caller.enterpriseId, { domain, verification_token: randomBytes(24).toString('base64url'), created_by: caller.userId });
        await recordChange(trx, caller, { action: 'create', entityType: 'sso_domain', entityId: row.id, details: { domain } });
        return presentDomain(row);
      });
    },

    /** Verified when its TXT record holds the token (the lookup runs before the transaction). */
    async verifyDomain(caller: Caller, id: string): Promise<SsoDomainView> {
      requireSsoAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const claimed = await inTransaction(db, ({ trx }) => repo.lockDomain(trx, enterpriseId, id));
      if (claimed === undefined) throw notFound('Domain');
      if (claimed.verified_at !== null) return presentDomain(claimed);
      if (!(await domainProven(resolveTxt, claimed.domain, claimed.verification_token))) {
        const { record_name, record_value } = verificationRecord(claimed.domain, claimed.verification_token);
        throw validationError([{ field: 'domain', message: `no TXT record "${record_value}" was found at ${record_name}` }]);
      }
      return markVerified(caller, enterpriseId, id, 'dns');
    },

    /** A super admin's attestation, for any enterprise's claim. */
    async attestDomain(caller: Caller, id: string): Promise<SsoDomainView> {
      requireDomainAttestation(caller);
      const claimed = await inTransaction(db, ({ trx }) => repo.lockDomainById(trx, id));
      if (claimed === undefined) throw notFound('Domain');
      if (claimed.verified_at !== null) return presentDomain(claimed);
      return markVerified(caller, claimed.enterprise_id, id, 'super_admin');
    },

    async deleteDomain(caller: Caller, id: string): Promise<void> {
      requireSsoAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const row = await repo.lockDomain(trx, enterpriseId, id);
        if (row === undefined) throw notFound('Domain');
        await repo.deleteDomain(trx, enterpriseId, id);
        await recordChange(trx, caller, { action: 'delete', entityType: 'sso_domain', entityId: id, details: { domain: row.domain, was_verified: row.verified_at !== null } });
      });
    },
  };

  async function domainsOf(enterpriseId: string, query: SsoListQuery) {
    const page = await loadPage(pageRequest(query), () => repo.countDomains(db, enterpriseId), (limit, offset) => repo.listDomains(db, enterpriseId, limit, offset));
    return { ...page, data: page.data.map(presentDomain) };
  }

  /** The claim verified, audited in its enterprise's trail; 409 when another enterprise verified the domain first. */
  async function markVerified(caller: Caller, enterpriseId: string, id: string, method: 'dns' | 'super_admin'): Promise<SsoDomainView> {
    return inTransaction(db, async ({ trx }) => {
      const row = await repo.lockDomain(trx, enterpriseId, id);
      if (row === undefined) throw notFound('Domain');
      if (row.verified_at !== null) return presentDomain(row);
      const verified = await repo.markDomainVerified(trx, enterpriseId, id, caller.userId, new Date());
      await recordChange(trx, caller, { action: 'update', entityType: 'sso_domain', entityId: id, enterpriseId, details: { domain: row.domain, change: 'verified', method } });
      return presentDomain(verified);
    });
  }
}

export type SsoSettingsService = ReturnType<typeof createSsoSettingsService>;
