import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { toastDone } from '../../components/confirm-button';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { QueryState } from '../../components/page-states';
import { AcceptRiskForm } from './accept-risk-form';
import { AcceptanceDetails } from './acceptance-badge';
import { useAcceptance, useRevokeAcceptance, type AcceptTarget, type RiskAcceptance } from './api';

/** Withdraws an acceptance now, with the reason the trail keeps; asked for and confirmed in one dialog. */
function RevokeForm({ target, acceptanceId, onDone, onCancel }: { target: AcceptTarget; acceptanceId: string; onDone: () => void; onCancel: () => void }) {
  const revoke = useRevokeAcceptance();
  const [reason, setReason] = useState('');
  const submit = () =>
    revoke.mutate(
      { acceptanceId, braId: target.braId, reason: reason.trim() },
      { onSuccess: () => { toastDone(`The acceptance of ${target.scenarioName} is revoked: the risk is above appetite and not accepted.`); onDone(); } },
    );
  return (
    <form onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <Stack>
        <Text size="sm">The risk is no longer accepted from now on; the acceptance stays in the BRA's history with this reason.</Text>
        <Textarea label="Reason" required autosize minRows={3} maxLength={5000} value={reason} onChange={(event) => setReason(event.currentTarget.value)} error={fieldError(revoke.error, 'reason')} />
        <ErrorDisplay error={revoke.error} title="The acceptance was not revoked" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>Keep it</Button>
          <Button type="submit" color="red.9" disabled={reason.trim() === ''} loading={revoke.isPending}>Revoke acceptance</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The renewal form, from the acceptance when the caller has it, else read by its id (a register row knows only that). */
function RenewForm({ target, acceptance, acceptanceId, onDone }: { target: AcceptTarget; acceptance: RiskAcceptance | null; acceptanceId: string; onDone: () => void }) {
  const read = useAcceptance(acceptance === null ? acceptanceId : null);
  const form = (current: RiskAcceptance) => (
    <Stack>
      <AcceptanceDetails acceptance={current} />
      <AcceptRiskForm target={target} renewing={current} onDone={onDone} />
    </Stack>
  );
  return acceptance !== null ? form(acceptance) : <QueryState query={read}>{form}</QueryState>;
}

type Asking = 'accept' | 'renew' | 'revoke' | null;

/**
 * What a client admin may do about a scenario above appetite (shown only when the caller's abilities allow
 * it): accept it, or renew or revoke the acceptance in force. `acceptance` is the acceptance when the screen
 * has it (the BRA answer); `acceptanceId` alone does (a register row).
 */
export function AcceptanceActions({ target, acceptanceId, acceptance = null }: { target: AcceptTarget; acceptanceId: string | null; acceptance?: RiskAcceptance | null }) {
  const [asking, setAsking] = useState<Asking>(null);
  const close = () => setAsking(null);
  const id = acceptance?.id ?? acceptanceId;
  const name = target.scenarioName;
  return (
    <>
      {id === null ? (
        <Button size="xs" variant="light" aria-label={`Accept risk ${name}`} onClick={() => setAsking('accept')}>
          Accept risk
        </Button>
      ) : (
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant="light" aria-label={`Renew the acceptance of ${name}`} onClick={() => setAsking('renew')}>Renew</Button>
          <Button size="xs" variant="light" color="red" aria-label={`Revoke the acceptance of ${name}`} onClick={() => setAsking('revoke')}>Revoke</Button>
        </Group>
      )}
      <Modal opened={asking === 'accept' || asking === 'renew'} onClose={close} title={asking === 'renew' ? `Renew the acceptance: ${name}` : `Accept risk: ${name}`} size="lg">
        {asking === 'accept' && <AcceptRiskForm target={target} renewing={null} onDone={close} />}
        {asking === 'renew' && id !== null && <RenewForm target={target} acceptance={acceptance} acceptanceId={id} onDone={close} />}
      </Modal>
      <Modal opened={asking === 'revoke'} onClose={close} title={`Revoke the acceptance: ${name}`}>
        {asking === 'revoke' && id !== null && <RevokeForm target={target} acceptanceId={id} onDone={close} onCancel={close} />}
      </Modal>
    </>
  );
}
