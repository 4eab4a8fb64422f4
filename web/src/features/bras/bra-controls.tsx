import { Badge, Button, Group, Select, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { ErrorDisplay } from '../../components/error-display';
import { WHOLE_BADGE, effectivenessColor } from '../../components/level-colors';
import { Empty } from '../../components/page-states';
import { useKeyControls } from '../controls/api';
import { useLinkControl, useUnlinkControl, type BraDetail } from './api';

/** The select's value for a link to the whole BRA (a Select's value cannot be null and still be chosen). */
const WHOLE_BRA = 'whole-bra';

/**
 * The controls that mitigate the BRA's scenarios: each linked to one scenario (the scenario then shows their
 * weakest effectiveness) or to the BRA as a whole; linked and unlinked while the BRA may be changed.
 */
export function BraControls({ bra, editable }: { bra: BraDetail; editable: boolean }) {
  const library = useKeyControls(1, 100);
  const link = useLinkControl(bra.id);
  const unlink = useUnlinkControl(bra.id);
  const [choice, setChoice] = useState<string | null>(null);
  const [target, setTarget] = useState<string>(WHOLE_BRA);
  const scenarioLinkId = target === WHOLE_BRA ? null : target;
  // A sub-control is linked at most once per scenario (and once BRA-wide): offer only what that target lacks.
  const linked = new Set(bra.controls.filter((control) => control.bra_risk_scenario_id === scenarioLinkId).map((control) => control.sub_control_id));
  const options = (library.data?.data ?? [])
    .map((key) => ({ group: key.name, items: key.sub_controls.filter((sub) => !linked.has(sub.id)).map((sub) => ({ value: sub.id, label: sub.name })) }))
    .filter((group) => group.items.length > 0);
  const targets = [{ value: WHOLE_BRA, label: 'The BRA as a whole' }, ...bra.scenarios.map((scenario) => ({ value: scenario.id, label: `Scenario: ${scenario.name}` }))];
  const scenarioName = new Map(bra.scenarios.map((scenario) => [scenario.id, scenario.name]));
  return (
    <>
      {editable && (
        <Group align="flex-end" mb="sm" wrap="wrap">
          <Select label="Sub-control from the library" placeholder="Choose a sub-control" searchable data={options} value={choice} onChange={setChoice} style={{ flex: 1 }} miw={220} />
          <Select label="Mitigates" data={targets} value={target} onChange={(value) => setTarget(value ?? WHOLE_BRA)} allowDeselect={false} miw={220} />
          <Button
            disabled={choice === null}
            loading={link.isPending}
            onClick={() => choice && link.mutate({ subControlId: choice, scenarioLinkId }, { onSuccess: () => { setChoice(null); toastDone('The control is linked.'); } })}
          >
            Link control
          </Button>
        </Group>
      )}
      <ErrorDisplay error={link.error ?? unlink.error} title={link.error ? 'The control was not linked' : 'The control was not unlinked'} />
      {bra.controls.length === 0 ? (
        <Empty title="No controls linked" next={editable ? 'Link the sub-controls that mitigate these scenarios.' : 'No controls are linked to this BRA yet.'} />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Mitigates</Table.Th>
                <Table.Th>Key control</Table.Th>
                <Table.Th>Sub-control</Table.Th>
                <Table.Th>ToD / ToE</Table.Th>
                <Table.Th>Effectiveness</Table.Th>
                {editable && (
                  <Table.Th>
                    <VisuallyHidden>Unlink</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bra.controls.map((control) => (
                <Table.Tr key={control.id} data-testid="control-link">
                  <Table.Td>{control.bra_risk_scenario_id ? scenarioName.get(control.bra_risk_scenario_id) : <Text size="sm" c="dimmed">The whole BRA</Text>}</Table.Td>
                  <Table.Td>{control.key_control_name}</Table.Td>
                  <Table.Td>{control.sub_control_name}</Table.Td>
                  <Table.Td>{control.tod ?? '–'} / {control.toe ?? '–'}</Table.Td>
                  <Table.Td>
                    <Badge color={effectivenessColor(control.total_effectiveness)} variant="light" style={WHOLE_BADGE}>{control.total_effectiveness ?? 'Not assessed'}</Badge>
                  </Table.Td>
                  {editable && (
                    <Table.Td>
                      <ConfirmButton
                        label="Unlink"
                        aria-label={`Unlink ${control.sub_control_name}`}
                        title="Unlink this control?"
                        loading={unlink.isPending && unlink.variables === control.id}
                        onConfirm={() => unlink.mutate(control.id, { onSuccess: () => toastDone(`${control.sub_control_name} is no longer linked.`) })}
                      >
                        {control.sub_control_name} will no longer count as mitigating {control.bra_risk_scenario_id ? scenarioName.get(control.bra_risk_scenario_id) : 'this BRA'}. The
                        control itself stays in the library.
                      </ConfirmButton>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
