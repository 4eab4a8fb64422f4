/**
 * What the console shows to whom (decisions.md D5), in one place. It only hides controls a role cannot
 * use; the service decides every call, and a refusal is shown as its 403 message.
 */
export interface Caller {
  role: 'super_admin' | 'admin' | 'assessor' | 'reviewer';
  user_id: string;
}

export const can = {
  seeRiskData: (caller: Caller) => caller.role !== 'super_admin',
  createBra: (caller: Caller) => caller.role === 'admin' || caller.role === 'assessor',
  editBra: (caller: Caller, bra: { created_by?: string | null }) =>
    caller.role === 'admin' || (caller.role === 'assessor' && (bra.created_by === undefined || bra.created_by === caller.user_id)),
  decideBra: (caller: Caller) => caller.role === 'admin',
  manageControlLibrary: (caller: Caller) => caller.role === 'admin',
  recordControlTests: (caller: Caller) => caller.role === 'admin' || caller.role === 'assessor',
  changeActions: (caller: Caller) => caller.role === 'admin' || caller.role === 'assessor',
  setAppetite: (caller: Caller) => caller.role === 'admin',
  readAudit: (caller: Caller) => caller.role === 'admin' || caller.role === 'reviewer',
  administerUsers: (caller: Caller) => caller.role === 'admin' || caller.role === 'super_admin',
  administerPlatform: (caller: Caller) => caller.role === 'super_admin',
  /** Webhooks, service accounts and SCIM provisioning: the enterprise's client admins. */
  manageIntegrations: (caller: Caller) => caller.role === 'admin',
  /** Adding, re-inviting or reactivating a member of this role: super admins any, client admins assessors and reviewers. */
  manageMember: (caller: Caller, member: { role: string }) => caller.role === 'super_admin' || (caller.role === 'admin' && member.role !== 'admin'),
};
