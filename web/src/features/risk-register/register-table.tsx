import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { effectivenessColor, riskLevelColor } from '../../components/level-colors';
import { WHOLE_BADGE } from '../../components/level-colors';
import type { RegisterRow } from './api';

function Rating({ rating }: { rating: RegisterRow['inherent_rating'] }) {
  if (rating === null) return <Text size="sm" c="dimmed">Not rated</Text>;
  return (
    <Badge color={riskLevelColor(rating.risk_level)} variant="light" tt="none" style={WHOLE_BADGE} title={`impact ${rating.impact_score} × likelihood ${rating.likelihood_score}`}>
      {rating.risk_score} · {rating.risk_level}
    </Badge>
  );
}

/** The register's rows as the service gives them: scores, bands, the appetite flag and effectiveness are its own. */
export function RegisterTable({ rows }: { rows: RegisterRow[] }) {
  return (
    <Table.ScrollContainer minWidth={1120}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Scenario</Table.Th>
            <Table.Th>Place</Table.Th>
            <Table.Th>BRA</Table.Th>
            <Table.Th>Inherent</Table.Th>
            <Table.Th>Residual</Table.Th>
            <Table.Th>Appetite</Table.Th>
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
              <Table.Td><Rating rating={row.inherent_rating} /></Table.Td>
              <Table.Td><Rating rating={row.residual_rating} /></Table.Td>
              <Table.Td>
                {row.above_appetite ? (
                  <Badge color="red" variant="filled" tt="none" style={WHOLE_BADGE} data-above-appetite>Above {row.appetite_threshold}</Badge>
                ) : (
                  <Text size="sm" c="dimmed">{row.appetite_threshold === null ? 'No appetite set' : `Within ${row.appetite_threshold}`}</Text>
                )}
              </Table.Td>
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
