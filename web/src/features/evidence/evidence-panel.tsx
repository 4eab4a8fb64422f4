import { Anchor, Progress, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { FileDrop } from '../../components/file-drop';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { ErrorDisplay } from '../../components/error-display';
import { QueryState } from '../../components/page-states';
import { formatBytes, formatTime } from '../../lib/format';
import { useAttachEvidence, useDownloadEvidence, useEvidence, useRemoveEvidence, type EvidenceRecord } from './api';

/**
 * The files behind a record (a BRA, a scenario, an action, a control test): listed with their hash, downloaded,
 * attached by dropping or choosing a file (with its progress), removed after confirming. What the caller may
 * do comes from the list's abilities; the service checks the type, the size and the quota, and says why not.
 */
export function EvidencePanel({ record, title = 'Evidence' }: { record: EvidenceRecord; title?: string }) {
  const evidence = useEvidence(record);
  const { attach, progress } = useAttachEvidence(record);
  const remove = useRemoveEvidence(record);
  const download = useDownloadEvidence();
  // One file after the other: a mutation confirms only its latest call, and the progress bar is one file's.
  const send = async (files: File[]) => {
    for (const file of files) {
      try {
        await attach.mutateAsync(file);
        toastDone(`${file.name} is attached.`);
      } catch {
        return; // the refusal is shown below; the files after it are not sent
      }
    }
  };
  return (
    <Stack gap="xs" data-testid={`evidence-${record.record_type}`}>
      <Title order={3} size="h5">{title}</Title>
      <QueryState query={evidence}>
        {({ data, abilities }) => (
          <>
            {data.length === 0 ? (
              <Text size="sm" c="dimmed">No files yet.</Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>File</Table.Th>
                      <Table.Th>Size</Table.Th>
                      <Table.Th>SHA-256</Table.Th>
                      <Table.Th>Attached</Table.Th>
                      {abilities.remove && <Table.Th><VisuallyHidden>Remove</VisuallyHidden></Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.map((file) => (
                      <Table.Tr key={file.id} data-testid="evidence-file">
                        <Table.Td>
                          <Anchor component="button" type="button" size="sm" onClick={() => download.mutate(file)} aria-label={`Download ${file.name}`}>
                            {file.name}
                          </Anchor>
                          <Text size="xs" c="dimmed">{file.media_type}</Text>
                        </Table.Td>
                        <Table.Td>{formatBytes(file.size_bytes)}</Table.Td>
                        <Table.Td>
                          <Tooltip label={file.sha256}>
                            <Text size="xs" ff="monospace" data-sha256={file.sha256}>{file.sha256.slice(0, 12)}…</Text>
                          </Tooltip>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{file.created_by_user?.full_name ?? '—'}</Text>
                          <Text size="xs" c="dimmed">{formatTime(file.created_at)}</Text>
                        </Table.Td>
                        {abilities.remove && (
                          <Table.Td>
                            <ConfirmButton
                              label="Remove"
                              aria-label={`Remove ${file.name}`}
                              title="Remove this file?"
                              loading={remove.isPending && remove.variables === file.id}
                              onConfirm={() => remove.mutate(file.id, { onSuccess: () => toastDone(`${file.name} is removed.`) })}
                            >
                              {file.name} leaves this record's evidence. The audit trail keeps its name and hash.
                            </ConfirmButton>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {abilities.attach && (
              <FileDrop onFiles={send} busy={attach.isPending} label={`Attach files as ${title.toLowerCase()}`} hint="Drop files here: PDF, Office documents, images or text." />
            )}
            {progress !== null && <Progress value={progress * 100} aria-label="Upload progress" animated />}
          </>
        )}
      </QueryState>
      <ErrorDisplay error={attach.error ?? remove.error ?? download.error} title={attach.error ? 'The file was not attached' : remove.error ? 'The file was not removed' : 'The file could not be downloaded'} />
    </Stack>
  );
}
