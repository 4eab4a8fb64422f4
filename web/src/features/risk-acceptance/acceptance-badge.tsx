import { Badge, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { WHOLE_BADGE } from '../../components/level-colors';
import { formatTime } from '../../lib/format';
import { acceptanceLine } from './acceptance-terms';
import type { RiskAcceptance } from './api';

/** Who accepted the risk, when, why and on what conditions: what a reader asks of an acceptance. */
export function AcceptanceDetails({ acceptance }: { acceptance: RiskAcceptance }) {
  return (
    <Stack gap={4} data-testid="acceptance-details">
      <Text size="sm">
        Accepted by {acceptance.accepted_by_user?.full_name ?? 'a client admin'} {formatTime(acceptance.accepted_at)}, until {acceptance.expires_on} (residual {acceptance.accepted_residual_score} above {acceptance.accepted_threshold}).
      </Text>
      <Text size="sm">
        <Text span fw={600} size="sm">Rationale: </Text>
        {acceptance.rationale}
      </Text>
      {acceptance.conditions && (
        <Text size="sm">
          <Text span fw={600} size="sm">Conditions: </Text>
          {acceptance.conditions}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A scenario's acceptance as its row shows it: nothing within appetite, "not accepted" above it, or the last
 * day of the acceptance in force. `prefix` names the appetite too where no appetite column stands beside it;
 * with the acceptance itself, the badge opens its details.
 */
export function AcceptanceBadge({ aboveAppetite, acceptedUntil, acceptance = null, prefix = false }: {
  aboveAppetite: boolean | null;
  acceptedUntil: string | null;
  acceptance?: RiskAcceptance | null;
  prefix?: boolean;
}) {
  const line = acceptanceLine(aboveAppetite, acceptedUntil);
  if (line === null) return null;
  const text = prefix ? `Above appetite, ${line.text[0]!.toLowerCase()}${line.text.slice(1)}` : line.text;
  const badge = (
    <Badge color={line.accepted ? 'green' : 'red'} variant="light" tt="none" style={WHOLE_BADGE} data-acceptance={line.accepted ? 'accepted' : 'not-accepted'}>
      {text}
    </Badge>
  );
  if (acceptance === null) return badge;
  return (
    <Popover width={340} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <UnstyledButton aria-label={`${text}: who accepted it and why`}>{badge}</UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <AcceptanceDetails acceptance={acceptance} />
      </Popover.Dropdown>
    </Popover>
  );
}
