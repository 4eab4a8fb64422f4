import { Select } from '@mantine/core';
import { useEnterpriseUsers } from '../admin/api';
import { useCaller } from '../me/caller-context';

/**
 * "Assigned to (user)": a searchable choice of the enterprise's active members. Only members' administrators
 * may list them (the people screen's list); anyone else may assign an action to themself, or keep whom it is
 * assigned to. The service decides who may be assigned (422 on owner_user_id, shown under the field).
 */
export function MemberPicker({ value, current, onChange, error }: {
  value: string | null;
  /** Whom the action is assigned to now, so that a caller who may not list the members still sees the name. */
  current?: { id: string; full_name: string } | null;
  onChange: (value: string | null) => void;
  error?: string | undefined;
}) {
  const caller = useCaller();
  const members = useEnterpriseUsers(caller.abilities.administer_members ? caller.enterprise_id : null);
  const options = new Map<string, string>([[caller.user_id, `${caller.full_name} (me)`]]);
  if (current) options.set(current.id, current.id === caller.user_id ? `${current.full_name} (me)` : current.full_name);
  for (const member of members.data ?? []) if (member.active && !options.has(member.user_id)) options.set(member.user_id, member.full_name);
  return (
    <Select
      label="Assigned to (user)"
      description="The member told of it and reminded of its due date"
      placeholder="Nobody"
      searchable
      clearable
      nothingFoundMessage="No member of that name"
      data={[...options].map(([id, label]) => ({ value: id, label }))}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}
