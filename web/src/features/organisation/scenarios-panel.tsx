import { Autocomplete, Badge, Button, Card, Group, Modal, Stack, Switch, Table, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState } from '../../components/page-states';
import { toast } from '../../components/toast';
import { ConfirmButton } from '../../components/confirm-button';
import { useArchiveScenario, useCatalogue, useCreateScenario, useUpdateScenario, type CatalogueScenario } from './api';

/** The risk-scenario catalogue: search, create, edit, archive (confirmed), the archived on request. */
export function ScenariosPanel() {
  const [showArchived, setShowArchived] = useState(false);
  const [search, setSearch] = useState('');
  const catalogue = useCatalogue(showArchived);
  // The categories the catalogue already uses (a new enterprise's starter catalogue brings the Basel event types); a new one may be typed.
  const categories = useMemo(() => [...new Set((catalogue.data ?? []).map((scenario) => scenario.category))].sort(), [catalogue.data]);
  return (
    <Stack>
      <Card withBorder><ScenarioForm categories={categories} /></Card>
      <Group>
        <TextInput label="Search the catalogue" placeholder="Name or category" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
        <Switch label="Show archived scenarios" checked={showArchived} onChange={(event) => setShowArchived(event.currentTarget.checked)} mt="lg" />
      </Group>
      <QueryState query={catalogue}>
        {(scenarios) => {
          const needle = search.trim().toLowerCase();
          const shown = scenarios
            .filter((scenario) => needle === '' || `${scenario.name} ${scenario.category}`.toLowerCase().includes(needle))
            .sort((a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
          return shown.length === 0 ? (
            <Empty title="No scenario matches" next="Add one above, or clear the search." />
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped>
                <Table.Thead><Table.Tr><Table.Th>Scenario</Table.Th><Table.Th>Category</Table.Th><Table.Th>Changes</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {shown.map((scenario) => <ScenarioRow key={scenario.id} scenario={scenario} categories={categories} />)}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        }}
      </QueryState>
    </Stack>
  );
}

function ScenarioForm({ categories, scenario, onDone }: { categories: string[]; scenario?: CatalogueScenario; onDone?: () => void }) {
  const create = useCreateScenario();
  const update = useUpdateScenario();
  const change = scenario ? update : create;
  const form = useForm({
    initialValues: { name: scenario?.name ?? '', category: scenario?.category ?? '', description: scenario?.description ?? '' },
    validate: { name: (value) => (value.trim() === '' ? 'Enter a name' : null), category: (value) => (value.trim() === '' ? 'Choose or type a category' : null) },
  });
  const submit = form.onSubmit((values) => {
    const body = { name: values.name.trim(), category: values.category.trim(), description: values.description.trim() === '' ? null : values.description.trim() };
    const done = () => { toast({ title: scenario ? 'Scenario changed' : 'Scenario added', message: body.name }); if (!scenario) form.reset(); onDone?.(); };
    if (scenario) update.mutate({ id: scenario.id, ...body }, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  });
  return (
    <form onSubmit={submit}>
      <Stack>
        {!scenario && <Title order={2} size="h4">New risk scenario</Title>}
        <Group grow align="flex-start">
          <TextInput label="Name" {...form.getInputProps('name')} error={form.errors.name ?? fieldError(change.error, 'name')} />
          <Autocomplete label="Category" data={categories} {...form.getInputProps('category')} error={form.errors.category ?? fieldError(change.error, 'category')} />
        </Group>
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} error={fieldError(change.error, 'description')} />
        <ErrorDisplay error={change.error} title={scenario ? 'Not changed' : 'Not added'} />
        <Group justify="flex-end"><Button type="submit" loading={change.isPending}>{scenario ? 'Save scenario' : 'Add scenario'}</Button></Group>
      </Stack>
    </form>
  );
}

function ScenarioRow({ scenario, categories }: { scenario: CatalogueScenario; categories: string[] }) {
  const archive = useArchiveScenario();
  const [editing, { open, close }] = useDisclosure(false);
  const archived = scenario.archived_at !== null;
  return (
    <Table.Tr data-testid="scenario-row">
      <Table.Td>{scenario.name} {archived && <Badge color="gray" variant="light" ml="xs">Archived</Badge>}</Table.Td>
      <Table.Td>{scenario.category}</Table.Td>
      <Table.Td>
        {!archived && (
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" variant="subtle" onClick={open} aria-label={`Edit ${scenario.name}`}>Edit</Button>
            <ConfirmButton label="Archive" title={`Archive ${scenario.name}?`} aria-label={`Archive ${scenario.name}`} loading={archive.isPending} onConfirm={() => archive.mutate(scenario.id, { onSuccess: () => toast({ title: 'Scenario archived', message: scenario.name }) })}>
              {scenario.name} leaves the catalogue for new BRAs; the BRAs that assess it keep it.
            </ConfirmButton>
          </Group>
        )}
        <ErrorDisplay error={archive.error} title="Not archived" />
        <Modal opened={editing} onClose={close} title={`Edit ${scenario.name}`} centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
          <ScenarioForm categories={categories} scenario={scenario} onDone={close} />
        </Modal>
      </Table.Td>
    </Table.Tr>
  );
}
