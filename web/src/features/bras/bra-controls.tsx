import { Badge, Button, Group, Select, Table } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { effectivenessColor } from '../../components/level-colors';
import { Empty } from '../../components/page-states';
import { useKeyControls } from '../controls/api';
import { useLinkControl, type BraDetail } from './api';

export function BraControls({ bra, editable }: { bra: BraDetail; editable: boolean }) {
  const library = useKeyControls(1, 100);
  const link = useLinkControl(bra.id);
  const [choice, setChoice] = useState<string | null>(null);
  const linked = new Set(bra.controls.map((control) => control.sub_control_id));
  const options = (library.data?.data ?? []).map((key) => ({
    group: key.name,
    items: key.sub_controls.filter((sub) => !linked.has(sub.id)).map((sub) => ({ value: sub.id, label: sub.name })),
  })).filter((group) => group.items.length > 0);
  return (
    <>
      {editable && (
        <Group align="flex-end" mb="sm">
          <Select label="Sub-control from the library" placeholder="Choose a sub-control" searchable data={options} value={choice} onChange={setChoice} style={{ flex: 1 }} miw={220} />
          <Button disabled={choice === null} loading={link.isPending} onClick={() => choice && link.mutate(choice, { onSuccess: () => setChoice(null) })}>
            Link control
          </Button>
        </Group>
      )}
      <ErrorDisplay error={link.error} title="The control was not linked" />
      {bra.controls.length === 0 ? (
        <Empty title="No controls linked" next={editable ? 'Link the sub-controls that mitigate these scenarios.' : 'No controls are linked to this BRA yet.'} />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key control</Table.Th>
                <Table.Th>Sub-control</Table.Th>
                <Table.Th>ToD / ToE</Table.Th>
                <Table.Th>Effectiveness</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bra.controls.map((control) => (
                <Table.Tr key={control.id}>
                  <Table.Td>{control.key_control_name}</Table.Td>
                  <Table.Td>{control.sub_control_name}</Table.Td>
                  <Table.Td>{control.tod ?? '–'} / {control.toe ?? '–'}</Table.Td>
                  <Table.Td>
                    <Badge color={effectivenessColor(control.total_effectiveness)} variant="light">{control.total_effectiveness ?? 'Not assessed'}</Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
