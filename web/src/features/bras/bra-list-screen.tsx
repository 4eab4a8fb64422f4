import { Anchor, Button, Group, Modal, Select, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { PagedTable } from '../../components/paged-table';
import { EntitySelect } from '../legal-entities/entity-select';
import { useCaller } from '../me/caller-context';
import { BRA_STATUSES, useBras, type BraStatus } from './api';
import { CreateBraForm } from './create-bra-form';
import { BraStatusBadge } from './status-badge';

export function BraListScreen() {
  const caller = useCaller();
  const navigate = useNavigate();
  const [status, setStatus] = useState<BraStatus | null>(null);
  const [entity, setEntity] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [creating, { open, close }] = useDisclosure(false);
  const bras = useBras({ status: status ?? undefined, legal_entity_id: entity ?? undefined, page, page_size: 20 });
  return (
    <>
      <ScreenTitle actions={caller.abilities.create_bras && <Button onClick={open}>New BRA</Button>}>Business risk assessments</ScreenTitle>
      <Group mb="md" align="flex-end">
        <Select label="Status" placeholder="Any status" clearable data={BRA_STATUSES} value={status} onChange={(value) => { setStatus(value as BraStatus | null); setPage(1); }} />
        <EntitySelect value={entity} onChange={(value) => { setEntity(value); setPage(1); }} />
      </Group>
      <QueryState query={bras}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title="No BRAs here" next={caller.abilities.create_bras ? 'Create one with "New BRA", or clear the filters.' : 'Clear the filters, or ask an assessor to start one.'} />
          ) : (
            <PagedTable minWidth={640} striped highlightOnHover columns={['Name', 'Legal entity', 'Period', 'Status', 'Assessor']} pagination={answer.pagination} onPage={setPage}>
              {answer.data.map((bra) => (
                <Table.Tr key={bra.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/bras/${bra.id}`}>
                      {bra.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{bra.legal_entity.name}{bra.business_unit ? ` / ${bra.business_unit.name}` : ''}</Table.Td>
                  <Table.Td>{bra.period}</Table.Td>
                  <Table.Td><BraStatusBadge status={bra.status} /></Table.Td>
                  <Table.Td>{bra.assessor}</Table.Td>
                </Table.Tr>
              ))}
            </PagedTable>
          )
        }
      </QueryState>
      <Modal opened={creating} onClose={close} title="New BRA">
        <CreateBraForm assessorName={caller.full_name} onCreated={(id) => { close(); navigate(`/bras/${id}`); }} />
      </Modal>
    </>
  );
}
