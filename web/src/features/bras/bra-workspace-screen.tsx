import { Alert, Anchor, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useBra, type BraDetail } from './api';
import { BraControls } from './bra-controls';
import { BraReportButton } from './bra-report-button';
import { BraScenarios } from './bra-scenarios';
import { BraSnapshots } from './bra-snapshots';
import { BraTransitions } from './bra-transitions';
import { BraReview } from './bra-review';
import { BraStatusBadge } from './status-badge';
import { EditBraButton } from './edit-bra-form';
import { EvidencePanel } from '../evidence/evidence-panel';
import { RollForwardButton } from './roll-forward-button';
import { AcceptanceHistory } from '../risk-acceptance/acceptance-history';

function Stat({ label, value, alert = false }: { label: string; value: string | number; alert?: boolean }) {
  return (
    <Paper withBorder p="sm" data-testid={`stat-${label}`}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" c={alert ? 'red.9' : undefined}>
        {value}
      </Text>
    </Paper>
  );
}

function Decisions({ bra }: { bra: BraDetail }) {
  if (bra.return_reason) {
    return (
      <Alert color="orange" title={`Returned by ${bra.return_reason.returned_by_user?.full_name ?? 'the approver'} ${formatTime(bra.return_reason.returned_at)}`} data-testid="return-reason">
        {bra.return_reason.reason ?? 'No reason given.'} Rework the BRA and submit it again.
      </Alert>
    );
  }
  if (bra.status === 'approved') {
    const breaches = bra.current_appetite_breaches ?? [];
    return (
      <Stack gap="xs">
        <Alert color="green" title={`Approved by ${bra.approved_by_user?.full_name ?? 'a client admin'} ${formatTime(bra.approved_at)}`} data-testid="approval">
          {bra.final_comment ?? 'No final comment.'}
        </Alert>
        <Alert color={breaches.length > 0 ? 'red' : 'gray'} title="Today's appetite" data-testid="current-breaches">
          {breaches.length === 0
            ? 'No scenario is above the appetite that applies today.'
            : breaches.map((breach) => `${breach.name}: residual ${breach.residual_score} above ${breach.threshold}`).join('; ')}
        </Alert>
      </Stack>
    );
  }
  if (bra.status === 'cancelled') {
    return (
      <Alert color="red" title={`Cancelled ${formatTime(bra.cancelled_at)}`}>
        {bra.cancellation_reason ?? 'No reason given.'}
      </Alert>
    );
  }
  return null;
}

/** The tabs of the workspace; the open one is kept in the address (`?tab=`), so a link (a notification's) opens a tab. */
const TABS = ['scenarios', 'controls', 'review', 'snapshots', 'evidence', 'acceptances'] as const;

export function BraWorkspaceScreen() {
  const { braId = '' } = useParams();
  const bra = useBra(braId);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = TABS.find((name) => name === asked) ?? 'scenarios';
  const openTab = (next: string | null) => setParams(next === null || next === 'scenarios' ? {} : { tab: next }, { replace: true });
  return (
    <QueryState query={bra}>
      {(detail) => {
        // What the caller may change, from the BRA's abilities (the service's policy and lifecycle).
        const editable = detail.abilities.update;
        return (
          <Stack>
            <Anchor component={Link} to="/bras" size="sm">
              ← All BRAs
            </Anchor>
            <Group justify="space-between" wrap="wrap">
              <Stack gap={2}>
                <Group gap="sm">
                  <Title order={1} size="h2">
                    {detail.name}
                  </Title>
                  <BraStatusBadge status={detail.status} />
                </Group>
                <Text size="sm" c="dimmed">
                  {detail.legal_entity.name}
                  {detail.business_unit ? ` / ${detail.business_unit.name}` : ''} · {detail.period} · assessor {detail.assessor}
                </Text>
                <Text size="sm" c="dimmed" data-testid="bra-people">
                  Created by {detail.created_by_user?.full_name ?? 'unknown'} {formatTime(detail.created_at)}
                  {detail.approved_by_user ? ` · approved by ${detail.approved_by_user.full_name} ${formatTime(detail.approved_at)}` : ''}
                </Text>
                {detail.description && <Text size="sm" data-testid="bra-description">{detail.description}</Text>}
              </Stack>
              <Group gap="xs" align="flex-start" wrap="wrap">
                <BraReportButton braId={detail.id} />
                {editable && <EditBraButton bra={detail} />}
                {detail.abilities.roll_forward && <RollForwardButton bra={detail} />}
                <BraTransitions bra={detail} />
              </Group>
            </Group>
            <Decisions bra={detail} />
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Stat label="Scenarios" value={detail.summary.total_scenarios} />
              <Stat label="Assessed" value={detail.summary.assessed_scenarios} />
              <Stat label="Complete" value={`${detail.summary.completion_percentage}%`} />
              <Stat label="Above appetite" value={detail.summary.risks_above_appetite} alert={detail.summary.risks_above_appetite > 0} />
            </SimpleGrid>
            <Tabs value={tab} onChange={openTab} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="scenarios">Scenarios</Tabs.Tab>
                <Tabs.Tab value="controls">Controls</Tabs.Tab>
                <Tabs.Tab value="review">Review ({detail.comment_count})</Tabs.Tab>
                <Tabs.Tab value="snapshots">Snapshots</Tabs.Tab>
                <Tabs.Tab value="evidence">Evidence</Tabs.Tab>
                <Tabs.Tab value="acceptances">Risk acceptances</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="scenarios" pt="md">
                <BraScenarios bra={detail} editable={editable} />
              </Tabs.Panel>
              <Tabs.Panel value="controls" pt="md">
                <BraControls bra={detail} editable={editable} />
              </Tabs.Panel>
              <Tabs.Panel value="review" pt="md">
                <BraReview bra={detail} />
              </Tabs.Panel>
              <Tabs.Panel value="snapshots" pt="md">
                <BraSnapshots braId={detail.id} />
              </Tabs.Panel>
              <Tabs.Panel value="evidence" pt="md">
                <EvidencePanel record={{ record_type: 'bra', record_id: detail.id }} title="Evidence for the BRA" />
              </Tabs.Panel>
              <Tabs.Panel value="acceptances" pt="md">
                <AcceptanceHistory braId={detail.id} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        );
      }}
    </QueryState>
  );
}
