import { Badge, Button, Card, Group, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState } from '../../components/page-states';
import { toast } from '../../components/toast';
import { ConfirmButton } from '../../components/confirm-button';
import { useArchiveEntity, useArchiveUnit, useCreateEntity, useCreateUnit, useOrganisation, useRenameEntity, useRenameUnit, type OrganisationEntity } from './api';
import { RenameButton } from './rename-button';

/** The enterprise's legal entities and their business units: create, rename, archive (confirmed), the archived on request. */
export function EntitiesPanel() {
  const [showArchived, setShowArchived] = useState(false);
  const organisation = useOrganisation(showArchived);
  const create = useCreateEntity();
  const form = useForm({ initialValues: { name: '' }, validate: { name: (value) => (value.trim() === '' ? 'Enter a name' : null) } });
  return (
    <Stack>
      <Card withBorder>
        <form onSubmit={form.onSubmit((values) => create.mutate({ name: values.name.trim() }, { onSuccess: () => { toast({ title: 'Legal entity created', message: values.name.trim() }); form.reset(); } }))}>
          <Group align="flex-end">
            <TextInput label="New legal entity" placeholder="e.g. Harbourview Bank plc" {...form.getInputProps('name')} error={form.errors.name ?? fieldError(create.error, 'name')} style={{ flex: 1 }} />
            <Button type="submit" loading={create.isPending}>Create legal entity</Button>
          </Group>
          {!fieldError(create.error, 'name') && <ErrorDisplay error={create.error} title="Not created" />}
        </form>
      </Card>
      <Switch label="Show archived entities and units" checked={showArchived} onChange={(event) => setShowArchived(event.currentTarget.checked)} />
      <QueryState query={organisation}>
        {(entities) =>
          entities.length === 0 ? (
            <Empty title="No legal entity yet" next="Create the first one above: BRAs, appetites and access are per legal entity." />
          ) : (
            <>{entities.map((entity) => <EntityCard key={entity.id} entity={entity} />)}</>
          )
        }
      </QueryState>
    </Stack>
  );
}

function EntityCard({ entity }: { entity: OrganisationEntity }) {
  const rename = useRenameEntity();
  const archive = useArchiveEntity();
  const createUnit = useCreateUnit();
  const renameUnit = useRenameUnit();
  const archiveUnit = useArchiveUnit();
  const [unitName, setUnitName] = useState('');
  const archived = entity.archived_at !== null;
  return (
    <Card withBorder data-testid="entity-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3} size="h5">{entity.name}</Title>
            {archived && <Badge color="gray" variant="light">Archived</Badge>}
          </Group>
          {!archived && (
            <Group gap="xs">
              <RenameButton what="legal entity" current={entity.name} pending={rename.isPending} error={rename.error} onRename={(name, done) => rename.mutate({ id: entity.id, name }, { onSuccess: () => { done(); toast({ title: 'Legal entity renamed', message: name }); } })} />
              <ConfirmButton label="Archive" title={`Archive ${entity.name}?`} aria-label={`Archive ${entity.name}`} loading={archive.isPending} onConfirm={() => archive.mutate(entity.id, { onSuccess: () => toast({ title: 'Legal entity archived', message: `${entity.name} and its units leave the pickers; its approved BRAs stay.` }) })}>
                {entity.name} and its business units leave every picker and cannot be used by new BRAs. The service refuses while a BRA in progress uses it.
              </ConfirmButton>
            </Group>
          )}
        </Group>
        <ErrorDisplay error={archive.error} title="Not archived" />
        {entity.business_units.length > 0 && (
          <Table>
            <Table.Thead><Table.Tr><Table.Th>Business unit</Table.Th><Table.Th><Text size="sm" fw={600} ta="right">Changes</Text></Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {entity.business_units.map((unit) => (
                <Table.Tr key={unit.id}>
                  <Table.Td>{unit.name} {unit.archived_at !== null && <Badge color="gray" variant="light" ml="xs">Archived</Badge>}</Table.Td>
                  <Table.Td>
                    {unit.archived_at === null && !archived && (
                      <Group gap="xs" justify="flex-end">
                        <RenameButton what="business unit" current={unit.name} pending={renameUnit.isPending} error={renameUnit.error} onRename={(name, done) => renameUnit.mutate({ id: unit.id, name }, { onSuccess: () => { done(); toast({ title: 'Business unit renamed', message: name }); } })} />
                        <ConfirmButton label="Archive" title={`Archive ${unit.name}?`} aria-label={`Archive ${unit.name}`} loading={archiveUnit.isPending} onConfirm={() => archiveUnit.mutate(unit.id, { onSuccess: () => toast({ title: 'Business unit archived', message: unit.name }) })}>
                          {unit.name} leaves every picker and cannot be used by new BRAs.
                        </ConfirmButton>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <ErrorDisplay error={archiveUnit.error} title="Not archived" />
        {!archived && (
          <form onSubmit={(event) => { event.preventDefault(); if (unitName.trim() !== '') createUnit.mutate({ entityId: entity.id, name: unitName.trim() }, { onSuccess: () => { toast({ title: 'Business unit created', message: `${unitName.trim()} in ${entity.name}` }); setUnitName(''); } }); }}>
            <Group align="flex-end">
              <TextInput label={`New business unit of ${entity.name}`} value={unitName} onChange={(event) => setUnitName(event.currentTarget.value)} error={fieldError(createUnit.error, 'name')} style={{ flex: 1 }} />
              <Button type="submit" variant="light" disabled={unitName.trim() === ''} loading={createUnit.isPending}>Add business unit</Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
