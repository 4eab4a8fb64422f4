import { Badge, Button, Group, Paper, SegmentedControl, Select, Stack, Text, Textarea, Timeline, Title } from '@mantine/core';
import { toast } from '../../components/toast';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useAddComment, useComments, type BraDetail } from './api';
import { BRA_STATUSES } from './api';

const VERDICTS = { recommend_approval: { label: 'Recommends approval', color: 'green' }, changes_requested: { label: 'Requests changes', color: 'orange' } } as const;
type Verdict = keyof typeof VERDICTS;
const statusLabel = (status: string) => BRA_STATUSES.find((entry) => entry.value === status)?.label ?? status;

/** Comments on the BRA or a scenario, with a reviewer's verdict (recommend approval or request changes) and its reason. */
function CommentForm({ bra }: { bra: BraDetail }) {
  const add = useAddComment(bra.id);
  const [body, setBody] = useState('');
  const [scenario, setScenario] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<'none' | Verdict>('none');
  // Who gives verdicts is the BRA's ability (client admins and reviewers who read it); the service decides.
  const givesVerdict = bra.abilities.give_verdict;
  const submit = () =>
    add.mutate(
      { body: body.trim(), ...(scenario ? { scenario_id: scenario } : {}), ...(verdict !== 'none' ? { verdict } : {}) },
      {
        onSuccess: () => {
          toast({ color: 'green', title: verdict === 'none' ? 'Comment added' : VERDICTS[verdict].label, message: 'The assessor sees it on the BRA.' });
          setBody('');
          setVerdict('none');
        },
      },
    );
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Select
          label="On"
          data={[{ value: '', label: 'The BRA as a whole' }, ...bra.scenarios.map((entry) => ({ value: entry.id, label: `Scenario: ${entry.name}` }))]}
          value={scenario ?? ''}
          onChange={(value) => setScenario(value === '' ? null : value)}
          allowDeselect={false}
        />
        {givesVerdict && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="verdict-label">Verdict</Text>
            <SegmentedControl
              aria-labelledby="verdict-label"
              value={verdict}
              onChange={(value) => setVerdict(value as 'none' | Verdict)}
              data={[{ value: 'none', label: 'Comment only' }, { value: 'recommend_approval', label: 'Recommend approval' }, { value: 'changes_requested', label: 'Request changes' }]}
            />
          </Stack>
        )}
        <Textarea label={verdict === 'none' ? 'Comment' : 'Reason'} autosize minRows={2} value={body} onChange={(event) => setBody(event.currentTarget.value)} />
        <ErrorDisplay error={add.error} title="The comment was not added" />
        <Group justify="flex-end">
          <Button onClick={submit} disabled={body.trim() === ''} loading={add.isPending}>
            {verdict === 'none' ? 'Add comment' : VERDICTS[verdict].label.replace('Recommends', 'Recommend').replace('Requests', 'Request')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function BraReview({ bra }: { bra: BraDetail }) {
  const comments = useComments(bra.id);
  const open = bra.status === 'in_progress' || bra.status === 'under_review';
  const scenarioName = (id: string | null) => (id === null ? null : (bra.scenarios.find((entry) => entry.id === id)?.name ?? 'a scenario'));
  return (
    <Stack>
      <Title order={2} size="h4">Comments and verdicts</Title>
      {open && <CommentForm bra={bra} />}
      <QueryState query={comments}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No comments yet" next={open ? 'Reviewers comment here on the BRA or on a scenario.' : 'No one commented on this BRA.'} />
          ) : (
            <Stack gap="xs" data-testid="comments">
              {list.map((comment) => (
                <Paper key={comment.id} withBorder p="sm" data-testid="comment">
                  <Group gap="xs">
                    <Text size="sm" fw={600}>{comment.author_user?.full_name ?? 'Someone'}</Text>
                    <Text size="xs" c="dimmed">{formatTime(comment.created_at)}</Text>
                    {comment.scenario_id && <Badge variant="outline" color="gray">{scenarioName(comment.scenario_id)}</Badge>}
                    {comment.verdict && <Badge color={VERDICTS[comment.verdict].color} variant="light">{VERDICTS[comment.verdict].label}</Badge>}
                  </Group>
                  <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>{comment.body}</Text>
                </Paper>
              ))}
            </Stack>
          )
        }
      </QueryState>
      <Title order={2} size="h4">Timeline</Title>
      <Timeline bulletSize={14} lineWidth={2} data-testid="transitions">
        <Timeline.Item title={`Created by ${bra.created_by_user?.full_name ?? 'someone'}`}>
          <Text size="xs" c="dimmed">{formatTime(bra.created_at)}</Text>
        </Timeline.Item>
        {bra.transitions.map((move, index) => (
          <Timeline.Item key={index} title={`${statusLabel(move.from)} → ${statusLabel(move.to)}`} data-testid="transition">
            <Text size="xs" c="dimmed">{move.by_user?.full_name ?? 'System'} · {formatTime(move.at)}</Text>
            {move.reason && <Text size="sm">{move.reason}</Text>}
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
