import { Badge, Button, Group, Modal, MultiSelect, Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { WHOLE_BADGE, effectivenessColor, riskLevelColor } from '../../components/level-colors';
import { Empty } from '../../components/page-states';
import { useAddScenarios, useRiskScenarios, useSetIncluded, type BraDetail, type BraScenario } from './api';
import { RateScenario } from './rate-scenario';
import { AcceptanceActions } from '../risk-acceptance/acceptance-actions';
import { AcceptanceBadge } from '../risk-acceptance/acceptance-badge';

function LevelBadge({ rating }: { rating: BraScenario['inherent_rating'] }) {
  if (rating === null) return <Badge color="gray" variant="outline" style={WHOLE_BADGE}>Not rated</Badge>;
  return (
    <Badge color={riskLevelColor(rating.risk_level)} variant="light" style={WHOLE_BADGE}>
      {rating.risk_score} · {rating.risk_level}
    </Badge>
  );
}

export function BraScenarios({ bra, editable }: { bra: BraDetail; editable: boolean }) {
  const catalogue = useRiskScenarios();
  const add = useAddScenarios(bra.id);
  const setIncluded = useSetIncluded(bra.id);
  const [choice, setChoice] = useState<string[]>([]);
  const [rating, setRating] = useState<string | null>(null);
  const taken = new Set(bra.scenarios.map((scenario) => scenario.risk_scenario_id));
  const options = (catalogue.data?.data ?? []).filter((scenario) => !taken.has(scenario.id)).map((scenario) => ({ value: scenario.id, label: `${scenario.name} (${scenario.category})` }));
  const rated = bra.scenarios.find((scenario) => scenario.id === rating) ?? null;
  return (
    <>
      {editable && (
        <Group align="flex-end" mb="sm">
          <MultiSelect
            label="Scenario from the catalogue"
            placeholder={choice.length === 0 ? 'Choose one or more scenarios' : undefined}
            searchable
            clearable
            data={options}
            value={choice}
            onChange={setChoice}
            style={{ flex: 1 }}
            miw={220}
          />
          <Button disabled={choice.length === 0} loading={add.isPending} onClick={() => add.mutate(choice, { onSuccess: () => setChoice([]) })}>
            {choice.length > 1 ? `Add ${choice.length} scenarios` : 'Add scenario'}
          </Button>
        </Group>
      )}
      <ErrorDisplay error={add.error ?? setIncluded.error} />
      {bra.scenarios.length === 0 ? (
        <Empty title="No scenarios yet" next={editable ? 'Add scenarios from the catalogue above, then rate each one.' : 'The assessor has not added scenarios yet.'} />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Scenario</Table.Th>
                <Table.Th>Included</Table.Th>
                <Table.Th>Inherent</Table.Th>
                <Table.Th>Residual</Table.Th>
                <Table.Th>Appetite</Table.Th>
                <Table.Th>Previous residual</Table.Th>
                <Table.Th>Controls</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Ratings</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bra.scenarios.map((scenario) => (
                <Table.Tr key={scenario.id} data-testid="scenario-row">
                  <Table.Td>
                    {scenario.name}
                    <br />
                    <small>{scenario.category}</small>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`Include ${scenario.name}`}
                      checked={scenario.included}
                      disabled={!editable}
                      onChange={(event) => setIncluded.mutate({ linkId: scenario.id, included: event.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td><LevelBadge rating={scenario.inherent_rating} /></Table.Td>
                  <Table.Td><LevelBadge rating={scenario.residual_rating} /></Table.Td>
                  <Table.Td data-testid="appetite-flag">
                    {scenario.above_appetite === null ? (
                      <Text size="xs" c="dimmed">{scenario.applicable_threshold === null ? 'No appetite' : `Threshold ${scenario.applicable_threshold}`}</Text>
                    ) : (
                      <Stack gap={4} align="flex-start">
                        <Badge color={scenario.above_appetite ? 'red' : 'green'} variant="light" style={WHOLE_BADGE}>
                          {scenario.above_appetite ? 'Above' : 'Within'} {scenario.applicable_threshold}
                        </Badge>
                        <AcceptanceBadge aboveAppetite={scenario.above_appetite} acceptedUntil={scenario.acceptance?.expires_on ?? null} acceptance={scenario.acceptance ?? null} prefix />
                        {bra.abilities.accept_risks && scenario.above_appetite && (
                          <AcceptanceActions target={{ braId: bra.id, scenarioId: scenario.id, scenarioName: scenario.name }} acceptanceId={null} acceptance={scenario.acceptance ?? null} />
                        )}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td>{scenario.previous_residual_rating ? <LevelBadge rating={{ ...scenario.previous_residual_rating, justification: null }} /> : <Text size="xs" c="dimmed">—</Text>}</Table.Td>
                  <Table.Td data-testid="scenario-controls">
                    {scenario.controls.length === 0 ? (
                      <Text size="xs" c="dimmed">None linked</Text>
                    ) : (
                      <Badge color={effectivenessColor(scenario.control_effectiveness)} variant="light" style={WHOLE_BADGE}>
                        {scenario.controls.length} · {scenario.control_effectiveness ?? 'Not assessed'}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" onClick={() => setRating(scenario.id)} aria-label={`${editable ? 'Rate' : 'View ratings of'} ${scenario.name}`}>
                      {editable ? 'Rate' : 'View'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={rated !== null} onClose={() => setRating(null)} title={rated ? `Ratings: ${rated.name}` : ''} size="lg">
        {rated && <RateScenario braId={bra.id} scenario={rated} editable={editable} />}
      </Modal>
    </>
  );
}
