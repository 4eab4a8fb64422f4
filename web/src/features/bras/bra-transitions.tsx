import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { toast } from '../../components/toast';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { useTransition, type BraDetail, type Transition } from './api';

const LABELS: Record<Transition, { button: string; field: string | null }> = {
  submit: { button: 'Submit for review', field: null },
  return: { button: 'Return to assessor', field: 'What should be reworked' },
  approve: { button: 'Approve', field: 'Final comment' },
  cancel: { button: 'Cancel BRA', field: 'Reason for cancelling' },
};

const DONE: Record<Transition, string> = { submit: 'Submitted for review', return: 'Returned to the assessor', approve: 'BRA approved', cancel: 'BRA cancelled' };

const MOVES: Transition[] = ['submit', 'return', 'approve', 'cancel'];

/** The moves the BRA's abilities allow the caller now (the service's policy and lifecycle); the service checks each. */
export function BraTransitions({ bra }: { bra: BraDetail }) {
  const move = useTransition(bra.id);
  const [asking, setAsking] = useState<Transition | null>(null);
  const [text, setText] = useState('');
  const moves = MOVES.filter((transition) => bra.abilities[transition]);
  if (moves.length === 0) return null;
  const run = (transition: Transition) =>
    move.mutate({ transition, text }, { onSuccess: () => { setAsking(null); setText(''); toast({ color: transition === 'cancel' ? 'red' : 'green', title: DONE[transition], message: bra.name }); } });
  return (
    <>
      <Group gap="xs">
        {moves.map((transition) => (
          <Button
            key={transition}
            variant={transition === 'cancel' ? 'outline' : 'filled'}
            color={transition === 'cancel' ? 'red' : undefined}
            onClick={() => (LABELS[transition].field === null ? run(transition) : setAsking(transition))}
            loading={move.isPending && move.variables?.transition === transition}
          >
            {LABELS[transition].button}
          </Button>
        ))}
      </Group>
      {asking === null && <ErrorDisplay error={move.error} title="The BRA did not move" />}
      <Modal opened={asking !== null} onClose={() => setAsking(null)} title={asking ? LABELS[asking].button : ''}>
        {asking && (
          <Stack>
            <Textarea label={LABELS[asking].field} autosize minRows={3} value={text} onChange={(event) => setText(event.currentTarget.value)} />
            <ErrorDisplay error={move.error} title="The BRA did not move" />
            <Group justify="flex-end">
              <Button onClick={() => run(asking)} loading={move.isPending}>
                {LABELS[asking].button}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
