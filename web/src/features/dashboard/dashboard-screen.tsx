import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Anchor, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorDisplay } from '../../components/error-display';
import { Loading, QueryState, ScreenTitle } from '../../components/page-states';
import { BRA_STATUSES, useBraCountsByStatus, useBras } from '../bras/api';
import { CellSubControls } from '../controls/cell-sub-controls';
import { useEffectiveness, useHeatMap } from '../controls/api';
import { EffectivenessChart } from '../controls/effectiveness-chart';
import { ControlHeatMap } from '../controls/heat-map';
import { EntitySelect } from '../legal-entities/entity-select';

function BrasByStatus({ entity }: { entity: string | undefined }) {
  const counts = useBraCountsByStatus(entity);
  const failed = counts.find((count) => count.error);
  if (failed) return <ErrorDisplay error={failed.error} title="Could not count the BRAs" />;
  if (counts.some((count) => count.data === undefined)) return <Loading />;
  const data = BRA_STATUSES.map((status, index) => ({ status: status.label, BRAs: counts[index]!.data! }));
  return (
    <figure style={{ margin: 0 }} aria-label={`BRAs by status: ${data.map((entry) => `${entry.status} ${entry.BRAs}`).join(', ')}`}>
      <BarChart h={220} data={data} dataKey="status" series={[{ name: 'BRAs', color: 'blue.8' }]} tickLine="y" />
    </figure>
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
  const [cell, setCell] = useState<{ tod: string; toe: string } | null>(null);
  const scope = entity ?? undefined;
  const heatMap = useHeatMap(scope);
  const effectiveness = useEffectiveness(scope);
  return (
    <>
      <ScreenTitle actions={<EntitySelect value={entity} onChange={setEntity} />}>Dashboard</ScreenTitle>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">BRAs by status</Title>
          <BrasByStatus entity={scope} />
        </Card>
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">Awaiting review</Title>
            <Anchor component={Link} to="/bras" size="sm">All BRAs</Anchor>
          </Group>
          <AwaitingReview entity={scope} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Control heat map</Title>
          <QueryState query={heatMap}>{(data) => <ControlHeatMap heatMap={data} onOpen={setCell} />}</QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">Control effectiveness</Title>
          <QueryState query={effectiveness}>{(data) => <EffectivenessChart summary={data} />}</QueryState>
        </Card>
      </SimpleGrid>
      <CellSubControls cell={cell} onClose={() => setCell(null)} />
    </>
  );
}
