import { Anchor, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { DateField } from '../../components/date-field';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { formatDate } from '../../lib/format';
import type { BraDetail } from './api';
import { useRollForward, type RolledForward } from './history-api';

/** What the roll-forward opened: the new BRA, and the approved BRA's open actions that stay behind to re-link. */
function Opened({ bra, onOpen }: { bra: RolledForward; onOpen: () => void }) {
  return (
    <Stack data-testid="rolled-forward">
      <Text size="sm">
        <Anchor component={Link} to={`/bras/${bra.id}`} onClick={onOpen}>{bra.name}</Anchor> is open as a draft with the same scenarios and controls, and without ratings: each
        scenario shows its residual rating of this period for reference.
      </Text>
      {bra.open_actions.length === 0 ? (
        <Text size="sm">This BRA has no open mitigation actions.</Text>
      ) : (
        <>
          <Text size="sm" fw={600}>Open mitigation actions to re-link ({bra.open_actions.length})</Text>
          <List size="sm" data-testid="open-actions">
            {bra.open_actions.map((action) => (
              <List.Item key={action.id}>{action.action} ({action.owner}), due {formatDate(action.due_date)}</List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

/** The next period of an approved BRA (its abilities say who may open it). */
export function RollForwardButton({ bra }: { bra: BraDetail }) {
  const [opened, { open, close }] = useDisclosure(false);
  const roll = useRollForward(bra.id);
  const form = useForm({ initialValues: { name: '', period: '', assessor: bra.assessor, start_date: null as string | null } });
  const submit = form.onSubmit((values) => roll.mutate({ name: values.name, period: values.period, assessor: values.assessor, start_date: values.start_date }));
  const err = (field: string) => fieldError(roll.error, field);
  return (
    <>
      <Button variant="default" onClick={() => { roll.reset(); form.reset(); open(); }}>
        Roll forward
      </Button>
      <Modal opened={opened} onClose={close} title="Roll forward to the next period" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {roll.data ? (
          <Opened bra={roll.data} onOpen={close} />
        ) : (
          <form onSubmit={submit}>
            <Stack>
              <TextInput label="Name of the new BRA" required {...form.getInputProps('name')} error={err('name')} />
              <TextInput label="Period" placeholder="FY2028" required {...form.getInputProps('period')} error={err('period')} />
              <TextInput label="Assessor" required {...form.getInputProps('assessor')} error={err('assessor')} />
              <DateField label="Start date" clearable {...form.getInputProps('start_date')} error={err('start_date')} />
              <ErrorDisplay error={roll.error} title="The next period was not opened" />
              <Group justify="flex-end">
                <Button type="submit" loading={roll.isPending}>
                  Open the next period
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
