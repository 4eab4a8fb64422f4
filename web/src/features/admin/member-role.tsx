import { Badge, NativeSelect, Stack, Text } from '@mantine/core';
import { WHOLE_BADGE } from '../../components/level-colors';
import { useCaller } from '../me/caller-context';
import type { EnterpriseUser, MemberRole as Role } from './api';

export const ROLES: { value: Role; label: string }[] = [
  { value: 'assessor', label: 'Assessor' },
  { value: 'reviewer', label: 'Reviewer' },
  { value: 'admin', label: 'Client admin' },
];

export const roleLabel = (role: string) => ROLES.find((entry) => entry.value === role)?.label ?? role;

/** Why the caller is offered no change of this member's role, in words; null when one is offered. */
function whyFixed(caller: ReturnType<typeof useCaller>, user: EnterpriseUser): string | null {
  if (user.user_id === caller.user_id) return 'You cannot change your own role.';
  if (!user.active) return 'Reactivate the user to change their role.';
  if (!user.abilities.change_role) return "Only a super admin changes a client admin's role.";
  return null;
}

/**
 * A member's role: a choice among the roles the caller may grant (D5: a client admin between assessor and
 * reviewer, a super admin any), or the role as a badge with the reason it cannot be changed here.
 */
export function MemberRole({ user, onChange, pending }: { user: EnterpriseUser; onChange: (role: Role) => void; pending: boolean }) {
  const caller = useCaller();
  const reason = whyFixed(caller, user);
  if (reason !== null) {
    return (
      <Stack gap={2}>
        <Badge variant="light" tt="none" style={WHOLE_BADGE}>{roleLabel(user.role)}</Badge>
        <Text size="xs" c="dimmed">{reason}</Text>
      </Stack>
    );
  }
  // D5 as the admin policy lists it on /me: whoever may give both the role the member has and the new one.
  const choices = ROLES.filter((role) => role.value === user.role || caller.grantable_roles.includes(role.value));
  return (
    <NativeSelect
      size="xs"
      aria-label={`Role of ${user.full_name}`}
      data={choices}
      value={user.role}
      disabled={pending}
      onChange={(event) => onChange(event.currentTarget.value as Role)}
    />
  );
}
