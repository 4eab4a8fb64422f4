import { Button, Card, Code, Group, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, QueryState } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { toast } from '../../components/toast';
import { formatTime } from '../../lib/format';
import { useCheckpoints, useSignCheckpoint, useVerifyAgainstCheckpoint, type KeptCheckpointCheck } from './api';
import { VerificationResult } from './verification-result';

/**
 * The signed checkpoints of the trail (D7.6): listed with what they vouch for, signed on demand, and the
 * trail checked against one an auditor kept (pasted as listed, with the public key the auditor trusts).
 */
export function CheckpointsPanel() {
  const [page, setPage] = useState(1);
  const checkpoints = useCheckpoints(page);
  const sign = useSignCheckpoint();
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Signed checkpoints</Title>
        <Button
          variant="default"
          loading={sign.isPending}
          onClick={() => sign.mutate(undefined, { onSuccess: (checkpoint) => toast({ title: 'Checkpoint signed', message: `The trail's first ${checkpoint.entry_count} entries are now vouched for.` }) })}
        >
          Sign the trail now
        </Button>
      </Group>
      <ErrorDisplay error={sign.error} title="The checkpoint was not signed" />
      <QueryState query={checkpoints}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No checkpoint yet" next="The service signs the trail's head periodically; sign it now to keep one." />
          ) : (
            <PagedTable minWidth={640} striped columns={['Signed', 'Entries covered', 'Key', 'Keep']} pagination={answer.pagination} onPage={setPage}>
              {answer.data.map((checkpoint) => (
                <Table.Tr key={checkpoint.id}>
                  <Table.Td>{formatTime(checkpoint.signed_at)}</Table.Td>
                  <Table.Td>{checkpoint.entry_count}</Table.Td>
                  <Table.Td><Code>{checkpoint.key_id}</Code></Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" aria-label={`Copy the checkpoint signed ${formatTime(checkpoint.signed_at)}`} onClick={() => void navigator.clipboard?.writeText(JSON.stringify(checkpoint, null, 2)).then(() => toast({ title: 'Copied', message: 'Keep it outside the service to check the trail later.' }))}>
                      Copy
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </PagedTable>
          )
        }
      </QueryState>
      <VerifyKeptCheckpoint />
    </Card>
  );
}

function VerifyKeptCheckpoint() {
  const verify = useVerifyAgainstCheckpoint();
  const [checkpointText, setCheckpointText] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [parseError, setParseError] = useState<string | null>(null);
  const submit = () => {
    let checkpoint: KeptCheckpointCheck['checkpoint'];
    try {
      checkpoint = JSON.parse(checkpointText) as KeptCheckpointCheck['checkpoint'];
    } catch {
      setParseError('Paste the checkpoint as it was listed: a JSON object.');
      return;
    }
    setParseError(null);
    // The listing's public_key travels with the checkpoint; the key the auditor trusts is the top-level one.
    verify.mutate({ checkpoint, ...(publicKey.trim() === '' ? {} : { public_key: publicKey.trim() }) });
  };
  return (
    <Stack mt="lg" gap="sm">
      <Title order={3} size="h5">Check the trail against a checkpoint you kept</Title>
      <Textarea label="The checkpoint (JSON, as listed)" autosize minRows={3} maxRows={10} value={checkpointText} onChange={(event) => setCheckpointText(event.currentTarget.value)} error={parseError} />
      <Textarea label="The public key you trust (PEM, optional)" autosize minRows={2} maxRows={6} value={publicKey} onChange={(event) => setPublicKey(event.currentTarget.value)} />
      <Group justify="flex-end">
        <Button onClick={submit} loading={verify.isPending} disabled={checkpointText.trim() === ''}>Check against this checkpoint</Button>
      </Group>
      <ErrorDisplay error={verify.error} title="The check could not run" />
      {verify.data && <VerificationResult verification={verify.data} against="the checkpoint you kept" />}
      {!verify.data && !verify.error && <Text size="xs" c="dimmed">The check walks the trail up to the checkpoint and compares the chain with what was signed.</Text>}
    </Stack>
  );
}

