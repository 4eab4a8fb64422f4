import { Badge, Button, Drawer, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { WHOLE_BADGE } from '../../components/level-colors';
import { QueryState } from '../../components/page-states';
import { toast } from '../../components/toast';
import { useLegalEntities, type LegalEntity } from '../legal-entities/api';
import { useCaller } from '../me/caller-context';
import { ConfirmButton } from '../../components/confirm-button';
import { useEntityRoles, useGrantEntity, useRemoveEntityRole, type EnterpriseUser, type EntityRole } from './api';

const WHOLE_ENTITY = '';

const placeOf = (role: { legal_entity_name: string; business_unit_name: string | null }) =>
  role.business_unit_name === null ? `${role.legal_entity_name} (whole entity)` : `${role.legal_entity_name} › ${role.business_unit_name}`;

/** The grant form: a legal entity, and one of its business units or the whole entity. */
function GrantForm({ enterpriseId, user, entities }: { enterpriseId: string; user: EnterpriseUser; entities: LegalEntity[] }) {
  const grant = useGrantEntity(enterpriseId);
  const [entityId, setEntityId] = useState('');
  const [unitId, setUnitId] = useState(WHOLE_ENTITY);
  const entity = entities.find((candidate) => candidate.id === entityId);
  const submit = () =>
    grant.mutate(
      { userId: user.user_id, legalEntityId: entityId, businessUnitId: unitId === WHOLE_ENTITY ? null : unitId },
      {
        onSuccess: () => {
          const unit = entity?.business_units.find((candidate) => candidate.id === unitId);
          toast({ title: 'Access granted', message: `${user.full_name} now sees ${entity?.name ?? 'the entity'}${unit ? ` › ${unit.name}` : ''}.` });
          setEntityId('');
          setUnitId(WHOLE_ENTITY);
        },
      },
    );
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">Give access</Title>
      <NativeSelect
        label="Legal entity"
        data={[{ value: '', label: 'Choose a legal entity…' }, ...entities.map((candidate) => ({ value: candidate.id, label: candidate.name }))]}
        value={entityId}
        onChange={(event) => { setEntityId(event.currentTarget.value); setUnitId(WHOLE_ENTITY); }}
        error={fieldError(grant.error, 'legal_entity_id')}
      />
      <NativeSelect
        label="Business unit"
        disabled={entity === undefined}
        data={[{ value: WHOLE_ENTITY, label: 'The whole entity' }, ...(entity?.business_units ?? []).map((unit) => ({ value: unit.id, label: unit.name }))]}
        value={unitId}
        onChange={(event) => setUnitId(event.currentTarget.value)}
        error={fieldError(grant.error, 'business_unit_id')}
      />
      <ErrorDisplay error={grant.error} title="Access was not granted" />
      <Group justify="flex-end">
        <Button disabled={entityId === ''} loading={grant.isPending} onClick={submit}>Grant access</Button>
      </Group>
    </Stack>
  );
}

function GrantList({ enterpriseId, user, roles, editable }: { enterpriseId: string; user: EnterpriseUser; roles: EntityRole[]; editable: boolean }) {
  const remove = useRemoveEntityRole(enterpriseId);
  if (roles.length === 0) return <Text size="sm" c="dimmed">No entity access yet: {user.full_name} sees no legal entity.</Text>;
  return (
    <Stack gap="xs" data-testid="entity-grants">
      {roles.map((role) => (
        <Group key={role.id} justify="space-between" wrap="nowrap" data-testid="entity-grant">
          <Text size="sm">{placeOf(role)}</Text>
          {editable && (
            <ConfirmButton
              label="Remove"
              aria-label={`Remove ${placeOf(role)}`}
              title={`Remove ${user.full_name}'s access to ${placeOf(role)}?`}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate({ userId: user.user_id, roleId: role.id }, { onSuccess: () => toast({ title: 'Access removed', message: `${user.full_name} no longer sees ${placeOf(role)}.` }) })
              }
            >
              {user.full_name} stops seeing its assessments, controls and actions at their next request.
            </ConfirmButton>
          )}
        </Group>
      ))}
      <ErrorDisplay error={remove.error} title="Access was not removed" />
    </Stack>
  );
}

/**
 * A member's entity access: the places they are assigned to (GET …/entity-roles, which names each grant's
 * id), and for a client admin the grant form and a remove per grant. Super admins read it; the legal
 * entities to grant are the enterprise's, which only its client admins list.
 */
export function EntityAccess({ enterpriseId, user }: { enterpriseId: string; user: EnterpriseUser }) {
  const caller = useCaller();
  const [opened, { open, close }] = useDisclosure(false);
  // Granting lists the enterprise's legal entities, which super admins do not read: they view.
  const editable = user.abilities.manage_entity_roles && caller.abilities.see_risk_data;
  const roles = useEntityRoles(opened ? user.user_id : null);
  const entities = useLegalEntities(opened && editable);
  const names = (user.entity_assignments ?? []).map((assignment) => (assignment.business_unit_name ? `${assignment.name} › ${assignment.business_unit_name}` : assignment.name));
  return (
    <>
      <Group gap={4} wrap="wrap">
        {names.length === 0 ? <Text size="sm" c="dimmed">None</Text> : names.map((name) => <Badge key={name} variant="outline" color="gray" tt="none" style={WHOLE_BADGE}>{name}</Badge>)}
        {user.abilities.manage_entity_roles && (
          <Button size="compact-xs" variant="subtle" onClick={open} aria-label={`${editable ? 'Manage access' : 'View access'} of ${user.full_name}`}>
            {editable ? 'Manage access' : 'View access'}
          </Button>
        )}
      </Group>
      <Drawer opened={opened} onClose={close} position="right" title={`Entity access of ${user.full_name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <QueryState query={roles}>{(list) => <GrantList enterpriseId={enterpriseId} user={user} roles={list} editable={editable} />}</QueryState>
          {editable && <QueryState query={entities}>{(list) => <GrantForm enterpriseId={enterpriseId} user={user} entities={list} />}</QueryState>}
        </Stack>
      </Drawer>
    </>
  );
}
