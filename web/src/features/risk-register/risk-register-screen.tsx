import { Badge, Button, CloseButton, Group, Select, Switch, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, Pager, QueryState, ScreenTitle } from '../../components/page-states';
import { useRiskScenarios } from '../bras/api';
import { EntitySelect } from '../legal-entities/entity-select';
import { useExportRegister, useRiskRegister } from './api';
import { RegisterTable } from './register-table';
import { CELL_FILTERS, cellFilterLabel, filtersFrom, paramsWith } from './register-filters';

const RISK_LEVELS = ['Low', 'Medium', 'High', 'Very High'];
const APPETITE = [
  { value: 'true', label: 'Above appetite' },
  { value: 'false', label: 'Within appetite' },
];
/** accepted=true: above appetite with an acceptance in force; false: above appetite without one (the service's filter). */
const ACCEPTED = [
  { value: 'true', label: 'Accepted' },
  { value: 'false', label: 'Not accepted' },
];
const SORTS = [
  { value: 'residual_score', label: 'Highest residual score first' },
  { value: 'name', label: 'Scenario name' },
];

export function RiskRegisterScreen() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFrom(params), [params]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const register = useRiskRegister({ ...filters, page, page_size: 25 });
  const exporter = useExportRegister();
  const scenarios = useRiskScenarios();
  const categories = [...new Set((scenarios.data?.data ?? []).map((scenario) => scenario.category))].sort();
  const set = (patch: Parameters<typeof paramsWith>[1]) => setParams(paramsWith(params, patch));
  const cell = cellFilterLabel(filters);
  return (
    <>
      <ScreenTitle
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'csv' })} loading={exporter.isPending && exporter.variables?.format === 'csv'}>Export CSV</Button>
            <Button variant="default" onClick={() => exporter.mutate({ filters, format: 'xlsx' })} loading={exporter.isPending && exporter.variables?.format === 'xlsx'}>Export XLSX</Button>
          </Group>
        }
      >
        Risk register
      </ScreenTitle>
      <Group mb="md" align="flex-end">
        <EntitySelect value={filters.legal_entity_id ?? null} onChange={(value) => set({ legal_entity_id: value, business_unit_id: null })} />
        <Select label="Category" placeholder="Any category" clearable searchable data={categories} value={filters.category ?? null} onChange={(value) => set({ category: value })} />
        <Select label="Residual level" placeholder="Any level" clearable data={RISK_LEVELS} value={filters.risk_level ?? null} onChange={(value) => set({ risk_level: value })} />
        <Select label="Appetite" placeholder="Above or within" clearable data={APPETITE} value={filters.above_appetite === undefined ? null : String(filters.above_appetite)} onChange={(value) => set({ above_appetite: value })} />
        <Select label="Acceptance" placeholder="Any" clearable data={ACCEPTED} value={filters.accepted === undefined ? null : String(filters.accepted)} onChange={(value) => set({ accepted: value })} />
        <Select label="Sort" data={SORTS} allowDeselect={false} value={filters.sort ?? 'residual_score'} onChange={(value) => set({ sort: value === 'residual_score' ? null : value })} />
        <Switch label="Include live BRAs" checked={filters.include_live === true} onChange={(event) => set({ include_live: event.currentTarget.checked ? true : null })} mb={8} />
      </Group>
      {cell && (
        <Group gap={4} mb="md" data-testid="cell-filter">
          <Badge variant="outline" size="lg">{cell}</Badge>
          <CloseButton aria-label="Clear the heat-map cell filter" onClick={() => set(Object.fromEntries(CELL_FILTERS.map((key) => [key, null])))} />
        </Group>
      )}
      <ErrorDisplay error={exporter.error} title="The export failed" />
      {exporter.data && <Text size="sm" role="status" mb="sm">Downloaded {exporter.data}.</Text>}
      <QueryState query={register}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty
              title="No scenarios match"
              next="The register lists the scenarios of approved BRAs: clear the filters, include live BRAs, or approve a BRA to see its scenarios here."
            />
          ) : (
            <>
              <RegisterTable rows={answer.data} />
              <Pager pagination={answer.pagination} onChange={(next) => setParams(new URLSearchParams([...paramsWith(params, {}), ['page', String(next)]]))} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
