import { Anchor, Badge, Button, Group, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router';
import { WHOLE_BADGE, effectivenessColor } from '../../components/level-colors';
import { QueryState } from '../../components/page-states';
import { formatDate } from '../../lib/format';
import { useBras } from '../bras/api';
import { EntitySelect } from '../legal-entities/entity-select';
import { TOD_LEVELS, TOE_LEVELS, useSubControlPages, type SubControlQuery } from './api';

const EFFECTIVENESS = ['Highly Effective', 'Effective', 'Moderately Effective', 'Less Effective', 'Not Effective'];

/** The filters the finder keeps in the address (so a heat-map cell, a link or a reload opens the same list). */
const FILTERS = ['tod', 'toe', 'total_effectiveness', 'not_assessed', 'legal_entity_id', 'bra_id', 'archived'] as const;

/** The finder's address for a heat-map cell: its ToD and ToE, within the dashboard's entity when one is chosen. */
export function subControlsOfCell(cell: { tod: string; toe: string }, legalEntityId: string | undefined) {
  const query = new URLSearchParams({ tod: cell.tod, toe: cell.toe, ...(legalEntityId ? { legal_entity_id: legalEntityId } : {}) });
  return `/controls?${query.toString()}`;
}

function queryOf(params: URLSearchParams): SubControlQuery {
  const query: Record<string, string | boolean> = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value === null) continue;
    query[name] = name === 'not_assessed' || name === 'archived' ? value === 'true' : value;
  }
  return query as SubControlQuery;
}

/** How long typing pauses before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * Search and filters over the library's sub-controls: by name or description, effectiveness, ToD and ToE,
 * untested, linked to an entity's or a BRA's assessments, archived on request. All of them are the
 * service's (the list it answers is what a heat-map cell or an effectiveness count covers), and it answers
 * a page at a time: a large library is never downloaded whole.
 */
export function SubControlFinder() {
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const search = params.get('q') ?? '';
  const [typed] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const subControls = useSubControlPages(typed === '' ? query : { ...query, q: typed });
  const bras = useBras({ page_size: 100 });
  const set = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const filtered = FILTERS.some((name) => params.has(name)) || search !== '';
  return (
    <Stack gap="xs" data-testid="sub-control-finder">
      <Title order={2} size="h4">Find sub-controls</Title>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput label="Search" placeholder="Name or description" value={search} onChange={(event) => set('q', event.currentTarget.value)} miw={200} />
        <Select label="Effectiveness" data={EFFECTIVENESS} clearable value={query.total_effectiveness ?? null} onChange={(value) => set('total_effectiveness', value)} miw={180} />
        <Select label="ToD" data={TOD_LEVELS} clearable value={query.tod ?? null} onChange={(value) => set('tod', value)} miw={150} />
        <Select label="ToE" data={TOE_LEVELS} clearable value={query.toe ?? null} onChange={(value) => set('toe', value)} miw={170} />
        <EntitySelect value={query.legal_entity_id ?? null} onChange={(value) => set('legal_entity_id', value)} label="Linked in BRAs of" />
        <Select
          label="Linked in BRA"
          searchable
          clearable
          data={(bras.data?.data ?? []).map((bra) => ({ value: bra.id, label: bra.name }))}
          value={query.bra_id ?? null}
          onChange={(value) => set('bra_id', value)}
          miw={200}
        />
        <Switch label="Untested only" checked={query.not_assessed === true} onChange={(event) => set('not_assessed', event.currentTarget.checked ? 'true' : null)} />
        <Switch label="Archived too" checked={query.archived === true} onChange={(event) => set('archived', event.currentTarget.checked ? 'true' : null)} />
      </Group>
      <QueryState query={subControls}>
        {(pages) => {
          const found = pages.pages.flatMap((page) => page.data);
          return found.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="finder-empty">{filtered ? 'No sub-control matches these filters.' : 'The library has no sub-controls yet.'}</Text>
          ) : (
            <Stack gap="xs">
              <Table.ScrollContainer minWidth={640}>
                <Table data-testid="finder-results">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Sub-control</Table.Th>
                      <Table.Th>ToD / ToE</Table.Th>
                      <Table.Th>Effectiveness</Table.Th>
                      <Table.Th>Last tested</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {found.map((sub) => (
                      <Table.Tr key={sub.id} data-testid="finder-row">
                        <Table.Td>
                          <Anchor component={Link} to={`/controls/sub-controls/${sub.id}`} size="sm">{sub.name}</Anchor>
                          {sub.archived && <Badge ml="xs" size="xs" color="gray" style={WHOLE_BADGE}>Archived</Badge>}
                        </Table.Td>
                        <Table.Td>{sub.tod ?? '–'} / {sub.toe ?? '–'}</Table.Td>
                        <Table.Td><Badge color={effectivenessColor(sub.total_effectiveness)} variant="light" style={WHOLE_BADGE}>{sub.total_effectiveness ?? 'Not assessed'}</Badge></Table.Td>
                        <Table.Td>{sub.testing_date ? `${formatDate(sub.testing_date)}, ${sub.tested_by ?? 'tester not named'}` : 'Never'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group justify="space-between">
                <Text size="sm" c="dimmed" aria-live="polite" data-testid="finder-count">
                  {subControls.hasNextPage ? `The first ${found.length} sub-controls, newest first` : `${found.length} sub-control${found.length === 1 ? '' : 's'}`}
                </Text>
                {subControls.hasNextPage && (
                  <Button variant="light" size="xs" onClick={() => void subControls.fetchNextPage()} loading={subControls.isFetchingNextPage}>
                    Load more sub-controls
                  </Button>
                )}
              </Group>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
