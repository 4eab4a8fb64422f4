import { Modal, Table, Text } from '@mantine/core';
import { useKeyControls } from './api';

/** The sub-controls of one heat-map cell: those of the library with that ToD and ToE. */
export function CellSubControls({ cell, onClose }: { cell: { tod: string; toe: string } | null; onClose: () => void }) {
  const library = useKeyControls(1, 100);
  const rows = (library.data?.data ?? []).flatMap((key) => key.sub_controls.filter((sub) => sub.tod === cell?.tod && sub.toe === cell?.toe).map((sub) => ({ key, sub })));
  return (
    <Modal opened={cell !== null} onClose={onClose} title={cell ? `Sub-controls with ToD ${cell.tod} and ToE ${cell.toe}` : ''}>
      {rows.length === 0 ? (
        <Text size="sm">No sub-control of the library has this result.</Text>
      ) : (
        <Table>
          <Table.Tbody>
            {rows.map(({ key, sub }) => (
              <Table.Tr key={sub.id}>
                <Table.Td>{key.name}</Table.Td>
                <Table.Td>{sub.name}</Table.Td>
                <Table.Td>{sub.total_effectiveness}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
