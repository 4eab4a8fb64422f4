import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Me } from '../features/me/caller-context';
import { hasNotifications } from '../features/notifications/who';

/**
 * The console's screens: one entry each. A screen is a folder under features/ (its screen component and
 * its api.ts of hooks) plus one line here; the navigation and the router are drawn from this list. Each
 * screen is its own lazy chunk, loaded after sign-in.
 */
export interface ScreenRoute {
  path: string;
  /** In the navigation when set. */
  label?: string;
  /** Who may open it: the caller's abilities as /me gives them (the service's policies); the service still decides every call. */
  visible: (caller: Me) => boolean;
  screen: LazyExoticComponent<ComponentType>;
}

const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(async () => ({ default: (await load())[name] }));

export const SCREENS: ScreenRoute[] = [
  { path: '/', label: 'Dashboard', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen') },
  { path: '/bras', label: 'BRAs', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/bras/bra-list-screen'), 'BraListScreen') },
  { path: '/bras/:braId', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/bras/bra-workspace-screen'), 'BraWorkspaceScreen') },
  { path: '/risk-register', label: 'Risk register', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/risk-register/risk-register-screen'), 'RiskRegisterScreen') },
  { path: '/controls', label: 'Controls', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/controls/controls-screen'), 'ControlsScreen') },
  { path: '/controls/sub-controls/:subControlId', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/controls/sub-control-screen'), 'SubControlScreen') },
  { path: '/actions', label: 'Mitigation actions', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/actions/actions-screen'), 'ActionsScreen') },
  { path: '/risk-appetite', label: 'Risk appetite', visible: (me) => me.abilities.see_risk_data, screen: named(() => import('../features/governance/risk-appetite-screen'), 'RiskAppetiteScreen') },
  { path: '/audit', label: 'Audit trail', visible: (me) => me.abilities.read_audit_trail, screen: named(() => import('../features/audit-trail/audit-screen'), 'AuditScreen') },
  { path: '/organisation', label: 'Organisation', visible: (me) => me.abilities.manage_organisation, screen: named(() => import('../features/organisation/organisation-screen'), 'OrganisationScreen') },
  { path: '/admin/users', label: 'Users', visible: (me) => me.abilities.administer_members, screen: named(() => import('../features/admin/users-screen'), 'UsersScreen') },
  { path: '/admin/enterprises', label: 'Enterprises', visible: (me) => me.abilities.administer_platform, screen: named(() => import('../features/admin/enterprises-screen'), 'EnterprisesScreen') },
  { path: '/admin/alerts', label: 'System alerts', visible: (me) => me.abilities.administer_platform, screen: named(() => import('../features/admin/alerts-screen'), 'AlertsScreen') },
  { path: '/platform/super-admins', label: 'Super admins', visible: (me) => me.abilities.administer_platform, screen: named(() => import('../features/platform/super-admins-screen'), 'SuperAdminsScreen') },
  { path: '/notifications', visible: (me) => hasNotifications(me), screen: named(() => import('../features/notifications/notifications-screen'), 'NotificationsScreen') },
  { path: '/profile', visible: () => true, screen: named(() => import('../features/me/profile-screen'), 'ProfileScreen') },
  { path: '/integrations/webhooks', label: 'Webhooks', visible: (me) => me.abilities.manage_integrations, screen: named(() => import('../features/integrations/webhooks-screen'), 'WebhooksScreen') },
  { path: '/integrations/service-accounts', label: 'Service accounts', visible: (me) => me.abilities.manage_integrations, screen: named(() => import('../features/integrations/service-accounts-screen'), 'ServiceAccountsScreen') },
  { path: '/integrations/provisioning', label: 'Provisioning (SCIM)', visible: (me) => me.abilities.manage_integrations, screen: named(() => import('../features/integrations/provisioning-screen'), 'ProvisioningScreen') },
  { path: '/integrations/sso', label: 'Single sign-on', visible: (me) => me.abilities.manage_integrations, screen: named(() => import('../features/integrations/sso-screen'), 'SsoScreen') },
];

/** Where a caller lands after signing in: the first screen of the navigation they may see. */
export function homeFor(caller: Me): string {
  return SCREENS.find((screen) => screen.label !== undefined && screen.visible(caller))?.path ?? '/';
}
