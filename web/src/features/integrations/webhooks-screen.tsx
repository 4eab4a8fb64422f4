import { Badge, Button, Card, Group, MultiSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { formatTime } from '../../lib/format';
import {
  EVENT_TYPES, useCreateWebhook, useDeleteWebhook, useDeliveries, useRetryDelivery, useRotateWebhookSecret, useTestWebhook, useUpdateWebhook, useWebhook, useWebhooks,
  type EventType, type Webhook,
} from './api';
import { ConfirmButton, SecretOnce, toastDone } from '../../components/confirm-button';

const DELIVERY_COLORS: Record<string, string> = { pending: 'blue', delivered: 'green', failed: 'red' };

function Deliveries({ webhook }: { webhook: Webhook }) {
  const [page, setPage] = useState(1);
  const detail = useWebhook(webhook.id);
  const deliveries = useDeliveries(webhook.id, page);
  const retry = useRetryDelivery(webhook.id);
  const current = detail.data ?? webhook;
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">Deliveries to {current.url}</Title>
        {current.failing_since && <Text size="sm" c="red.8">Failing since {formatTime(current.failing_since)}{current.disabled_reason ? `: ${current.disabled_reason}` : ''}</Text>}
        <ErrorDisplay error={retry.error} title="The delivery was not retried" />
        <QueryState query={deliveries}>
          {(answer) =>
            answer.data.length === 0 ? (
              <Empty title="No deliveries yet" next="Send a test delivery, or wait for the next event it subscribes to." />
            ) : (
              <PagedTable minWidth={720} columns={['Queued', 'Event', 'Status', 'Attempts', 'Last attempt', 'Retry']} pagination={answer.pagination} onPage={setPage}>
                {answer.data.map((delivery) => (
                  <Table.Tr key={delivery.id}>
                    <Table.Td>{formatTime(delivery.created_at)}</Table.Td>
                    <Table.Td>{delivery.event_type}</Table.Td>
                    <Table.Td><Badge color={DELIVERY_COLORS[delivery.status] ?? 'gray'} variant="light">{delivery.status}</Badge></Table.Td>
                    <Table.Td>{delivery.attempt_count}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{delivery.last_attempt_at ? formatTime(delivery.last_attempt_at) : 'Not yet tried'}{delivery.last_status_code !== null ? ` · answered ${delivery.last_status_code}` : ''}</Text>
                      {delivery.last_error && <Text size="sm" c="dimmed">{delivery.last_error}</Text>}
                      {delivery.next_attempt_at && <Text size="sm" c="dimmed">Next try {formatTime(delivery.next_attempt_at)}</Text>}
                    </Table.Td>
                    <Table.Td>
                      {delivery.status === 'failed' && (
                        <Button size="xs" variant="light" loading={retry.isPending && retry.variables === delivery.id}
                          onClick={() => retry.mutate(delivery.id, { onSuccess: () => toastDone(`The ${delivery.event_type} delivery is queued again.`) })}>Retry</Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </PagedTable>
            )
          }
        </QueryState>
        <Group justify="flex-end"><Button variant="default" size="xs" onClick={() => void deliveries.refetch()}>Refresh deliveries</Button></Group>
      </Stack>
    </Card>
  );
}

export function WebhooksScreen() {
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const form = useForm<{ url: string; event_types: EventType[]; description: string }>({
    initialValues: { url: '', event_types: [], description: '' },
    validate: { event_types: (value) => (value.length === 0 ? 'Choose at least one event' : null) },
  });
  const err = (field: string) => fieldError(create.error, field);
  const error = update.error ?? remove.error ?? rotate.error ?? test.error;
  return (
    <>
      <ScreenTitle>Webhooks</ScreenTitle>
      <Stack>
        <Card withBorder>
          <form onSubmit={form.onSubmit((values) => create.mutate(
            { url: values.url.trim(), event_types: values.event_types, ...(values.description.trim() ? { description: values.description.trim() } : {}) },
            { onSuccess: (answer) => { form.reset(); setSecret({ title: `Signing secret of ${answer.data.url}`, value: answer.data.secret }); toastDone('The endpoint was added.'); } },
          ))}>
            <Stack>
              <Title order={2} size="h4">New endpoint</Title>
              <TextInput label="URL" placeholder="https://hooks.example.com/risk-events" required {...form.getInputProps('url')} error={form.errors.url ?? err('url')} />
              <MultiSelect label="Events" required data={EVENT_TYPES} {...form.getInputProps('event_types')} error={form.errors.event_types ?? err('event_types')} />
              <TextInput label="Description" {...form.getInputProps('description')} error={err('description')} />
              <ErrorDisplay error={create.error} title="The endpoint was not added" />
              <Group justify="flex-end"><Button type="submit" loading={create.isPending}>Add endpoint</Button></Group>
            </Stack>
          </form>
        </Card>
        <ErrorDisplay error={error} title="The endpoint did not change" />
        <QueryState query={webhooks}>
          {(list) =>
            list.length === 0 ? (
              <Empty title="No endpoints yet" next="Add one above: the service signs each event it POSTs there." />
            ) : (
              <Table.ScrollContainer minWidth={900}>
                <Table>
                  <Table.Thead><Table.Tr><Table.Th>Endpoint</Table.Th><Table.Th>Events</Table.Th><Table.Th>State</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
                  <Table.Tbody>
                    {list.map((webhook) => (
                      <Table.Tr key={webhook.id}>
                        <Table.Td><Text size="sm" fw={600}>{webhook.url}</Text>{webhook.description && <Text size="sm" c="dimmed">{webhook.description}</Text>}</Table.Td>
                        <Table.Td><Text size="sm">{webhook.event_types.join(', ')}</Text></Table.Td>
                        <Table.Td>
                          <Badge color={webhook.enabled ? (webhook.failing_since ? 'orange' : 'green') : 'gray'} variant="light">{webhook.enabled ? (webhook.failing_since ? 'Failing' : 'Enabled') : 'Paused'}</Badge>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs">
                            <Button size="xs" variant="light" onClick={() => setSelected(selected === webhook.id ? null : webhook.id)}>{selected === webhook.id ? 'Hide deliveries' : 'Deliveries'}</Button>
                            <Button size="xs" variant="light" loading={test.isPending && test.variables === webhook.id}
                              onClick={() => test.mutate(webhook.id, { onSuccess: () => { setSelected(webhook.id); toastDone(`A test event is on its way to ${webhook.url}.`); } })}>Send test</Button>
                            <Button size="xs" variant="light" onClick={() => update.mutate({ id: webhook.id, body: { enabled: !webhook.enabled } }, { onSuccess: () => toastDone(webhook.enabled ? 'The endpoint is paused.' : 'The endpoint is enabled again.') })}>
                              {webhook.enabled ? 'Pause' : 'Enable'}
                            </Button>
                            <ConfirmButton label="Rotate secret" color="orange" title="Rotate the signing secret?" loading={rotate.isPending && rotate.variables === webhook.id}
                              onConfirm={() => rotate.mutate(webhook.id, { onSuccess: (answer) => { setSecret({ title: `New signing secret of ${webhook.url}`, value: answer.data.secret }); toastDone(`The secret was rotated; the previous one also signs until ${formatTime(answer.data.previous_secret_expires_at)}.`); } })}>
                              A new secret signs every event from now on; the previous one keeps signing for a while so the receiver can switch.
                            </ConfirmButton>
                            <ConfirmButton label="Delete" title={`Delete the endpoint ${webhook.url}?`}
                              onConfirm={() => remove.mutate(webhook.id, { onSuccess: () => { if (selected === webhook.id) setSelected(null); toastDone('The endpoint was deleted.'); } })}>
                              Nothing more is sent to it, and its queued deliveries are dropped.
                            </ConfirmButton>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </QueryState>
        {selected !== null && webhooks.data?.some((webhook) => webhook.id === selected) && <Deliveries key={selected} webhook={webhooks.data.find((webhook) => webhook.id === selected)!} />}
      </Stack>
      <SecretOnce title={secret?.title ?? ''} secret={secret?.value ?? null} onClose={() => setSecret(null)} />
    </>
  );
}
