import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { QueryState, ScreenTitle } from '../../components/page-states';
import { BRA_STATUSES, useBras } from '../bras/api';
import { useEffectiveness, useHeatMap } from '../controls/api';
import { EffectivenessChart } from '../controls/effectiveness-chart';
import { ControlHeatMap } from '../controls/heat-map';
import { subControlsOfCell } from '../controls/sub-control-finder';
import { EntitySelect } from '../legal-entities/entity-select';
import { useDashboard, type Dashboard } from './api';
import { countAxis } from '../../components/count-axis';
import { OverdueActionsChart } from './overdue-actions-chart';
import { ResidualTrendChart } from './residual-trend-chart';
import { UntestedControls } from './untested-controls';
import { RiskHeatMap } from './risk-heat-map';

function BrasByStatus({ counts }: { counts: Dashboard['bras_by_status'] }) {
  const data = BRA_STATUSES.map((status) => ({ status: status.label, BRAs: counts[status.value] }));
  return (
    <figure style={{ margin: 0 }} aria-label={`BRAs by status: ${data.map((entry) => `${entry.status} ${entry.BRAs}`).join(', ')}`}>
      <BarChart h={220} data={data} dataKey="status" series={[{ name: 'BRAs', color: 'blue.8' }]} {...countAxis('Status', 'BRAs', Math.max(...data.map((entry) => entry.BRAs)))} />
    </figure>
  );
}

/** The register's scenarios against appetite, as the service counts them; the links list those above, accepted or not. */
function AboveAppetite({ scenarios, entity }: { scenarios: Dashboard['scenarios']; entity: string | undefined }) {
  const place: Record<string, string> = entity ? { legal_entity_id: entity } : {};
  const register = (filter: Record<string, string>) => `/risk-register?${new URLSearchParams({ ...filter, ...place })}`;
  return (
    <Stack gap={4} data-testid="above-appetite">
      <Text fw={700} size="xl" c={scenarios.above_appetite > 0 ? 'red.9' : undefined}>
        {scenarios.above_appetite} of {scenarios.assessed}
      </Text>
      <Text size="sm" c="dimmed">
        assessed scenarios above appetite · {scenarios.within_appetite_percentage}% within
      </Text>
      {scenarios.above_appetite > 0 && (
        <>
          <Text size="sm" data-testid="acceptance-counts">
            Above appetite:{' '}
            <Anchor component={Link} to={register({ accepted: 'true' })} size="sm" data-testid="accepted-count">{scenarios.above_appetite_accepted} accepted</Anchor>,{' '}
            <Anchor component={Link} to={register({ accepted: 'false' })} size="sm" data-testid="unaccepted-count">{scenarios.above_appetite_unaccepted} not accepted</Anchor>
          </Text>
          <Anchor component={Link} to={register({ above_appetite: 'true' })} size="sm">List them in the register</Anchor>
        </>
      )}
    </Stack>
  );
}

/** The acceptances in force whose last day is within 30 days, soonest first (the service's list, at most 10). */
function ExpiringAcceptances({ expiring }: { expiring: Dashboard['acceptances_expiring'] }) {
  if (expiring.length === 0) return <Text size="sm" c="dimmed">No risk acceptance ends within 30 days.</Text>;
  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="expiring-acceptances">
      {expiring.map((acceptance) => (
        <Text key={acceptance.acceptance_id} size="sm" component="li">
          <Text span fw={600} size="sm">{acceptance.expires_on}</Text> · {acceptance.scenario_name} ·{' '}
          <Anchor component={Link} to={`/bras/${acceptance.bra_id}`} size="sm">{acceptance.bra_name}</Anchor>
        </Text>
      ))}
    </Stack>
  );
}

function AwaitingReview({ entity }: { entity: string | undefined }) {
  // The BRAs an approver should look at next.
  const bras = useBras({ legal_entity_id: entity, status: 'under_review', page_size: 10 });
  return (
    <QueryState query={bras}>
      {(answer) =>
        answer.data.length === 0 ? (
          <Text size="sm" c="dimmed">No BRA awaits review.</Text>
        ) : (
          <>
            {answer.data.map((bra) => (
              <Text key={bra.id} size="sm">
                <Anchor component={Link} to={`/bras/${bra.id}`}>{bra.name}</Anchor> · {bra.legal_entity.name}
              </Text>
            ))}
          </>
        )
      }
    </QueryState>
  );
}

export function DashboardScreen() {
  const [entity, setEntity] = useState<string | null>(null);
  const navigate = useNavigate();
  const scope = entity ?? undefined;
  const dashboard = useDashboard(scope);
  const heatMap = useHeatMap(scope);
  const effectiveness = useEffectiveness(scope);
  return (
    <>
      <ScreenTitle actions={<EntitySelect value={entity} onChange={setEntity} />}>Dashboard</ScreenTitle>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">BRAs by status</Title>
          <QueryState query={dashboard}>{(data) => <BrasByStatus counts={data.bras_by_status} />}</QueryState>
        </Card>
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">Awaiting review</Title>
            <Anchor component={Link} to="/bras" size="sm">All BRAs</Anchor>
          </Group>
          <AwaitingReview entity={scope} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Scenarios above appetite</Title>
          <QueryState query={dashboard}>{(data) => <AboveAppetite scenarios={data.scenarios} entity={scope} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Acceptances expiring within 30 days</Title>
          <QueryState query={dashboard}>{(data) => <ExpiringAcceptances expiring={data.acceptances_expiring} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Overdue actions by priority</Title>
          <QueryState query={dashboard}>{(data) => <OverdueActionsChart overdue={data.overdue_actions} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Residual risk over the periods</Title>
          <QueryState query={dashboard}>{(data) => <ResidualTrendChart trend={data.trend} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Untested controls</Title>
          <QueryState query={dashboard}>{(data) => <UntestedControls subControls={data.sub_controls} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Inherent risk heat map</Title>
          <QueryState query={dashboard}>{(data) => <RiskHeatMap kind="inherent" heatMap={data.heat_maps.inherent} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Residual risk heat map</Title>
          <QueryState query={dashboard}>{(data) => <RiskHeatMap kind="residual" heatMap={data.heat_maps.residual} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Control heat map</Title>
          <QueryState query={heatMap}>{(data) => <ControlHeatMap heatMap={data} onOpen={(cell) => navigate(subControlsOfCell(cell, scope))} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Control effectiveness</Title>
          <QueryState query={effectiveness}>{(data) => <EffectivenessChart summary={data} />}</QueryState>
        </Card>
      </SimpleGrid>
    </>
  );
}
