import { Button, Group, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { useRecordRating, type BraScenario } from './api';
import { RatingGrid } from './rating-grid';

type Kind = 'inherent' | 'residual';
type Cell = { impact: number; likelihood: number };

/** Rates one scenario: pick a cell on each grid and save it; the service answers the score and band. */
export function RateScenario({ braId, scenario, editable }: { braId: string; scenario: BraScenario; editable: boolean }) {
  const record = useRecordRating(braId);
  const [picked, setPicked] = useState<Record<Kind, Cell | null>>({ inherent: null, residual: null });
  const [justification, setJustification] = useState('');
  const save = (kind: Kind) => {
    const cell = picked[kind];
    if (cell === null) return;
    record.mutate(
      { bra_risk_scenario_id: scenario.id, rating_type: kind, impact_score: cell.impact, likelihood_score: cell.likelihood, justification: justification.trim() === '' ? null : justification },
      { onSuccess: () => setPicked((current) => ({ ...current, [kind]: null })) },
    );
  };
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(['inherent', 'residual'] as const).map((kind) => (
          <Stack key={kind} gap="xs" data-testid={`grid-${kind}`}>
            <Text fw={600}>{kind === 'inherent' ? 'Inherent rating' : 'Residual rating'}</Text>
            <RatingGrid
              label={`${kind === 'inherent' ? 'Inherent' : 'Residual'} rating of ${scenario.name}`}
              saved={kind === 'inherent' ? scenario.inherent_rating : scenario.residual_rating}
              selected={picked[kind]}
              disabled={!editable}
              onSelect={(cell) => setPicked((current) => ({ ...current, [kind]: cell }))}
            />
            {editable && (
              <Group>
                <Button size="xs" onClick={() => save(kind)} disabled={picked[kind] === null} loading={record.isPending && record.variables?.rating_type === kind}>
                  Save {kind} rating
                </Button>
              </Group>
            )}
          </Stack>
        ))}
      </SimpleGrid>
      {editable && <Textarea label="Justification (optional, saved with the next rating)" autosize minRows={2} value={justification} onChange={(event) => setJustification(event.currentTarget.value)} />}
      <ErrorDisplay error={record.error} title="The rating was not saved" />
    </Stack>
  );
}
