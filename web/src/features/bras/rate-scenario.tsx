import { Button, Group, List, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { toast } from '../../components/toast';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { useRecordRating, type BraScenario } from './api';
import { RatingGrid } from './rating-grid';
import { ScenarioTrendChart } from './scenario-trend-chart';
import { EvidencePanel } from '../evidence/evidence-panel';

type Kind = 'inherent' | 'residual';
type Cell = { impact: number; likelihood: number };

/** What each score of the grid's axes means (the methodology's 1–5 scales), shown beside the grid. */
const IMPACT = ['Negligible', 'Minor', 'Moderate', 'Major', 'Severe'];
const LIKELIHOOD = ['Rare', 'Unlikely', 'Possible', 'Likely', 'Almost certain'];

function Criteria() {
  return (
    <SimpleGrid cols={2} data-testid="rating-criteria">
      {([['Impact (I)', IMPACT], ['Likelihood (L)', LIKELIHOOD]] as const).map(([title, scale]) => (
        <Stack gap={2} key={title}>
          <Text size="sm" fw={600}>{title}</Text>
          <List size="xs" type="ordered">
            {scale.map((name) => <List.Item key={name}>{name}</List.Item>)}
          </List>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/**
 * Rates one scenario: pick a cell on each grid (click or arrow keys), give that rating its own
 * justification and save it; the service answers the score and band.
 */
export function RateScenario({ braId, scenario, editable }: { braId: string; scenario: BraScenario; editable: boolean }) {
  const record = useRecordRating(braId);
  const [picked, setPicked] = useState<Record<Kind, Cell | null>>({ inherent: null, residual: null });
  const [why, setWhy] = useState<Record<Kind, string>>({ inherent: '', residual: '' });
  const savedOf = (kind: Kind) => (kind === 'inherent' ? scenario.inherent_rating : scenario.residual_rating);
  const save = (kind: Kind) => {
    const cell = picked[kind] ?? (savedOf(kind) ? { impact: savedOf(kind)!.impact_score, likelihood: savedOf(kind)!.likelihood_score } : null);
    if (cell === null) return;
    const text = why[kind].trim();
    record.mutate(
      { bra_risk_scenario_id: scenario.id, rating_type: kind, impact_score: cell.impact, likelihood_score: cell.likelihood, justification: text === '' ? null : text },
      {
        onSuccess: (rating) => {
          setPicked((current) => ({ ...current, [kind]: null }));
          setWhy((current) => ({ ...current, [kind]: '' }));
          toast({ color: 'green', title: `${kind === 'inherent' ? 'Inherent' : 'Residual'} rating saved`, message: `${scenario.name}: ${rating.risk_score}, ${rating.risk_level}` });
        },
      },
    );
  };
  return (
    <Stack>
      <Criteria />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(['inherent', 'residual'] as const).map((kind) => {
          const saved = savedOf(kind);
          const title = kind === 'inherent' ? 'Inherent' : 'Residual';
          return (
            <Stack key={kind} gap="xs" data-testid={`grid-${kind}`}>
              <Text fw={600}>{title} rating</Text>
              <RatingGrid label={`${title} rating of ${scenario.name}`} saved={saved} selected={picked[kind]} disabled={!editable} onSelect={(cell) => setPicked((current) => ({ ...current, [kind]: cell }))} />
              <Text size="sm" data-testid={`justification-${kind}`}>
                <Text span fw={600} size="sm">Justification: </Text>
                {saved?.justification ?? (saved ? 'none given' : '—')}
              </Text>
              {editable && (
                <>
                  <Textarea label={`${title} justification`} autosize minRows={2} value={why[kind]} onChange={(event) => {
                      const text = event.currentTarget.value;
                      setWhy((current) => ({ ...current, [kind]: text }));
                    }} />
                  <Group>
                    <Button size="xs" onClick={() => save(kind)} disabled={picked[kind] === null && saved === null} loading={record.isPending && record.variables?.rating_type === kind}>
                      Save {kind} rating
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          );
        })}
      </SimpleGrid>
      {scenario.previous_residual_rating && (
        <Text size="sm" data-testid="previous-residual">
          Previous period's residual rating: {scenario.previous_residual_rating.risk_score} · {scenario.previous_residual_rating.risk_level}
        </Text>
      )}
      <ErrorDisplay error={record.error} title="The rating was not saved" />
      <EvidencePanel record={{ record_type: 'bra_scenario', record_id: scenario.id }} title="Evidence for this scenario" />
      <ScenarioTrendChart riskScenarioId={scenario.risk_scenario_id} />
    </Stack>
  );
}
