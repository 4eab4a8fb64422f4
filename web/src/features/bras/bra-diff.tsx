import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { WHOLE_BADGE, riskLevelColor } from '../../components/level-colors';
import { formatTime } from '../../lib/format';
import type { BraDiff } from './history-api';

type Score = BraDiff['ratings'][number]['from'];
type End = BraDiff['from'];

const END_KIND: Record<End['kind'], string> = { created: 'At creation', approved: 'At approval', current: 'Now' };
const FIGURE: Record<BraDiff['summary'][number]['field'], string> = {
  total_scenarios: 'Scenarios',
  assessed_scenarios: 'Assessed',
  risks_above_appetite: 'Above appetite',
  completion_percentage: 'Complete (%)',
};

/** "At approval", with "(previous period)" when the snapshot is of the BRA this one was rolled forward from. */
export function endKind(end: { kind: End['kind']; bra_id: string }, braId: string) {
  return `${END_KIND[end.kind]}${end.bra_id !== braId ? ' (previous period)' : ''}`;
}

const endLabel = (end: End, braId: string) => `${endKind(end, braId)}, ${formatTime(end.as_of)}`;

function ScoreCell({ score }: { score: Score }) {
  if (score === null) return <Text size="sm" c="dimmed">Not rated</Text>;
  return (
    <Badge color={riskLevelColor(score.risk_level)} variant="light" style={WHOLE_BADGE}>
      {score.risk_score} · {score.risk_level} (I{score.impact_score} × L{score.likelihood_score})
    </Badge>
  );
}

/** A section with a heading and a table whose first column names the thing and the last two are before and after. */
function Section({ title, head, children }: { title: string; head: string[]; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">{title}</Title>
      <Table.ScrollContainer minWidth={520}>
        <Table withTableBorder data-testid={`diff-${title}`}>
          <Table.Thead>
            <Table.Tr>{head.map((column) => <Table.Th key={column}>{column}</Table.Th>)}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/**
 * What changed between two ends of a BRA (snapshots, or a snapshot and now), side by side: before on the left,
 * after on the right, only what differs. The service decides what counts as a change (a new justification
 * alone is not one); this view only lays it out.
 */
export function BraDiffView({ diff }: { diff: BraDiff }) {
  const before = endLabel(diff.from, diff.bra_id);
  const after = endLabel(diff.to, diff.bra_id);
  if (diff.empty) return <Text size="sm" data-testid="diff-empty">Nothing changed between {before.toLowerCase()} and {after.toLowerCase()}.</Text>;
  const { scenarios, controls, methodology } = diff;
  const membership = [
    ...scenarios.added.map((scenario) => ({ ...scenario, before: 'Not in the BRA', after: scenario.included ? 'Added' : 'Added, excluded' })),
    ...scenarios.removed.map((scenario) => ({ ...scenario, before: scenario.included ? 'In the BRA' : 'In the BRA, excluded', after: 'Removed' })),
    ...scenarios.included.map((scenario) => ({ ...scenario, before: 'Excluded', after: 'Included' })),
    ...scenarios.excluded.map((scenario) => ({ ...scenario, before: 'Included', after: 'Excluded' })),
  ];
  const controlRows = [
    ...controls.added.map((control) => ({ ...control, before: '—', after: `Linked (${control.total_effectiveness ?? 'not assessed'})` })),
    ...controls.removed.map((control) => ({ ...control, before: `Linked (${control.total_effectiveness ?? 'not assessed'})`, after: 'Unlinked' })),
    ...controls.effectiveness_changed.map((control) => ({
      ...control,
      before: `${control.from.tod ?? '–'}/${control.from.toe ?? '–'} ${control.from.total_effectiveness ?? 'not assessed'}`,
      after: `${control.to.tod ?? '–'}/${control.to.toe ?? '–'} ${control.to.total_effectiveness ?? 'not assessed'}`,
    })),
  ];
  return (
    <Stack data-testid="bra-diff">
      {diff.summary.length > 0 && (
        <Section title="Figures" head={['Figure', before, after, 'Change']}>
          {diff.summary.map((figure) => (
            <Table.Tr key={figure.field}>
              <Table.Td>{FIGURE[figure.field]}</Table.Td>
              <Table.Td>{figure.from}</Table.Td>
              <Table.Td>{figure.to}</Table.Td>
              <Table.Td>{figure.delta > 0 ? `+${figure.delta}` : figure.delta}</Table.Td>
            </Table.Tr>
          ))}
        </Section>
      )}
      {diff.ratings.length > 0 && (
        <Section title="Ratings" head={['Scenario', 'Rating', before, after]}>
          {diff.ratings.map((rating) => (
            <Table.Tr key={`${rating.risk_scenario_id}-${rating.rating_type}`} data-testid="diff-rating">
              <Table.Td>{rating.name}</Table.Td>
              <Table.Td>{rating.rating_type === 'inherent' ? 'Inherent' : 'Residual'}</Table.Td>
              <Table.Td><ScoreCell score={rating.from} /></Table.Td>
              <Table.Td><ScoreCell score={rating.to} /></Table.Td>
            </Table.Tr>
          ))}
        </Section>
      )}
      {membership.length > 0 && (
        <Section title="Scenarios" head={['Scenario', before, after]}>
          {membership.map((scenario) => (
            <Table.Tr key={scenario.risk_scenario_id}>
              <Table.Td>{scenario.name}</Table.Td>
              <Table.Td>{scenario.before}</Table.Td>
              <Table.Td>{scenario.after}</Table.Td>
            </Table.Tr>
          ))}
        </Section>
      )}
      {controlRows.length > 0 && (
        <Section title="Controls" head={['Control', 'Mitigates', before, after]}>
          {controlRows.map((control) => (
            <Table.Tr key={`${control.risk_scenario_id ?? 'bra'}-${control.sub_control_id}`}>
              <Table.Td>{control.key_control_name} / {control.sub_control_name}</Table.Td>
              <Table.Td>{control.scenario_name ?? 'The whole BRA'}</Table.Td>
              <Table.Td>{control.before}</Table.Td>
              <Table.Td>{control.after}</Table.Td>
            </Table.Tr>
          ))}
        </Section>
      )}
      {(methodology.appetite || methodology.risk_bands) && (
        <Section title="Methodology" head={['What', before, after]}>
          {methodology.appetite && (
            <Table.Tr>
              <Table.Td>Applicable appetite</Table.Td>
              <Table.Td>{methodology.appetite.from ? `${methodology.appetite.from.risk_level}, threshold ${methodology.appetite.from.threshold_value}` : 'None'}</Table.Td>
              <Table.Td>{methodology.appetite.to ? `${methodology.appetite.to.risk_level}, threshold ${methodology.appetite.to.threshold_value}` : 'None'}</Table.Td>
            </Table.Tr>
          )}
          {methodology.risk_bands && (
            <Table.Tr>
              <Table.Td>Risk bands</Table.Td>
              <Table.Td>{methodology.risk_bands.from.map((band) => `${band.level} ${band.min}–${band.max}`).join(', ')}</Table.Td>
              <Table.Td>{methodology.risk_bands.to.map((band) => `${band.level} ${band.min}–${band.max}`).join(', ')}</Table.Td>
            </Table.Tr>
          )}
        </Section>
      )}
    </Stack>
  );
}
