import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { effectivenessColor, riskLevelColor } from '../../components/level-colors';
import { WHOLE_BADGE } from '../../components/level-colors';
import type { RegisterRow } from './api';
import { rowFlags } from './register-flags';
import { AcceptanceActions } from '../risk-acceptance/acceptance-actions';
import { AcceptanceBadge } from '../risk-acceptance/acceptance-badge';

function Rating({ rating }: { rating: RegisterRow['inherent_rating'] }) {
  if (rating === null) return <Text size="sm" c="dimmed">Not rated</Text>;
  return (
    <Badge color={riskLevelColor(rating.risk_level)} variant="light" tt="none" style={WHOLE_BADGE} title={`impact ${rating.impact_score} × likelihood ${rating.likelihood_score}`}>
      {rating.risk_score} · {rating.risk_level}
    </Badge>
  );
}

/** Above the threshold, within it, or nothing to judge yet: an unrated scenario is never "within" its appetite. */
function AppetiteCell({ row }: { row: RegisterRow }) {
  if (row.above_appetite) return <Badge color="red" variant="filled" tt="none" style={WHOLE_BADGE} data-above-appetite>Above {row.appetite_threshold}</Badge>;
  if (row.appetite_threshold === null) return <Text size="sm" c="dimmed">No appetite set</Text>;
  if (rowFlags(row).unrated) return <Text size="sm" c="dimmed">Not judged (threshold {row.appetite_threshold})</Text>;
  return <Text size="sm" c="dimmed">Within {row.appetite_threshold}</Text>;
}

function FlagsCell({ row }: { row: RegisterRow }) {
  const flags = rowFlags(row);
  if (!flags.unrated && !flags.residualAboveInherent) return <Text size="sm" c="dimmed">–</Text>;
  return (
    <>
      {flags.unrated && <Badge color="gray" variant="outline" tt="none" style={WHOLE_BADGE} data-flag="unrated">Unrated</Badge>}
      {flags.residualAboveInherent && <Badge color="orange" variant="light" tt="none" style={WHOLE_BADGE} data-flag="residual-above-inherent" title="The residual rating is higher than the inherent one">Residual above inherent</Badge>}
    </>
  );
}

/** Whether a risk above appetite is accepted, and (where the row says the caller may accept it now) what to do about it. */
function AcceptanceCell({ row }: { row: RegisterRow }) {
  if (!row.above_appetite) return <Text size="sm" c="dimmed">–</Text>;
  return (
    <Stack gap={4} align="flex-start">
      <AcceptanceBadge aboveAppetite={row.above_appetite} acceptedUntil={row.accepted_until} />
      {row.abilities.accept_risks && <AcceptanceActions target={{ braId: row.bra.id, scenarioId: row.scenario.id, scenarioName: row.scenario.name }} acceptanceId={row.acceptance_id} />}
    </Stack>
  );
}

/**
 * The register's rows as the service gives them: scores, bands, the appetite flag, the acceptance in force and
 * effectiveness are its own, and so is what the caller may do to each row now (`abilities`), which offers the actions.
 */
export function RegisterTable({ rows }: { rows: RegisterRow[] }) {
  return (
    <Table.ScrollContainer minWidth={1500}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Scenario</Table.Th>
            <Table.Th>Place</Table.Th>
            <Table.Th>BRA</Table.Th>
            <Table.Th>Owner</Table.Th>
            <Table.Th>Inherent</Table.Th>
            <Table.Th>Residual</Table.Th>
            <Table.Th>Appetite</Table.Th>
            <Table.Th>Acceptance</Table.Th>
            <Table.Th>Flags</Table.Th>
            <Table.Th>Controls</Table.Th>
            <Table.Th>Open actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.bra.id}-${row.scenario.id}`} data-testid="register-row">
              <Table.Td>
                <Text size="sm" fw={600}>{row.scenario.name}</Text>
                <Text size="xs" c="dimmed">{row.scenario.category}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.legal_entity.name}</Text>
                {row.business_unit && <Text size="xs" c="dimmed">{row.business_unit.name}</Text>}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/bras/${row.bra.id}`} size="sm">{row.bra.name}</Anchor>
                <Text size="xs" c="dimmed">
                  {row.bra.period}
                  {row.bra.live && ' · live'}
                </Text>
              </Table.Td>
              <Table.Td><Text size="sm">{row.bra.assessor}</Text></Table.Td>
              <Table.Td data-rating="inherent"><Rating rating={row.inherent_rating} /></Table.Td>
              <Table.Td data-rating="residual"><Rating rating={row.residual_rating} /></Table.Td>
              <Table.Td><AppetiteCell row={row} /></Table.Td>
              <Table.Td data-testid="acceptance-cell"><AcceptanceCell row={row} /></Table.Td>
              <Table.Td><FlagsCell row={row} /></Table.Td>
              <Table.Td>
                {row.control_effectiveness ? (
                  <Badge color={effectivenessColor(row.control_effectiveness)} variant="light" tt="none" style={WHOLE_BADGE}>{row.control_effectiveness}</Badge>
                ) : (
                  <Text size="sm" c="dimmed">Not assessed</Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {row.open_actions}
                  {row.overdue_actions > 0 && <Text span c="red.9" fw={600}> ({row.overdue_actions} overdue)</Text>}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
