import { readFileSync } from 'node:fs';

/**
 * The migrations, listed explicitly and in order (bundle-safe: nothing scans a folder at run time).
 * Each is a plain SQL file beside this index; forward-only, timestamp-prefixed.
 */
const MIGRATION_FILES = [
  '20261123080000_platform.sql',
  '20261123080100_governance_and_bras.sql',
  '20261123090000_domain_links.sql',
  '20261123090100_controls.sql',
  '20261123090200_bra_assessments.sql',
  '20261123090300_mitigation_actions.sql',
  '20261123090400_audit_trail.sql',
  '20261123100000_security.sql',
  '20261127110000_append_only_history.sql',
  '20261127120000_onboarding.sql',
  '20261127130000_scenario_controls_and_register.sql',
  '20261127140000_safe_clients.sql',
  '20261127150000_webhooks.sql',
  '20261127160000_control_library.sql',
  '20261127160100_enterprise_health.sql',
  '20261127180000_control_tests.sql',
  '20261127190000_webhook_versions.sql',
  '20261127200000_organisation_row_versions.sql',
  '20261128100000_bra_comments.sql',
  '20261128150000_bra_roll_forward.sql',
  '20261128200000_scheduled_job_runs.sql',
  '20261128300000_sharding_ready.sql',
  '20261129100000_sign_in_origins.sql',
  '20261130100000_service_accounts.sql',
  '20261130100100_scim.sql',
  '20261130200000_member_row_versions.sql',
  '20261201100000_evidence.sql',
  '20261202100000_risk_acceptances.sql',
  '20261203100000_notifications.sql',
  '20261204100000_notification_subjects.sql',
  '20261204110000_reminder_sources.sql',
  '20261204120000_notification_mail.sql',
  '20261204140000_sso.sql',
  '20261204170000_sso_saml.sql',
  '20261205100000_bra_residual_figures.sql',
  '20261206100000_register_entries.sql',
  '20261206153000_sub_control_search.sql',
] as const;

export interface SqlMigration {
  name: string;
  script: string;
}

export function loadMigrations(): SqlMigration[] {
  return MIGRATION_FILES.map((file) => ({
    name: file.replace(/\.sql$/, ''),
    script: readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'),
  }));
}
