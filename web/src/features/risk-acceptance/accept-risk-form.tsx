import { Button, Group, Select, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { toastDone } from '../../components/confirm-button';
import { DateField } from '../../components/date-field';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { useActions } from '../actions/api';
import { initialTerms, termsBody, utcToday } from './acceptance-terms';
import { useAcceptRisk, type AcceptTarget, type RiskAcceptance } from './api';

/** The BRA's mitigation actions, those treating this scenario first: the plan an acceptance may point to. */
function ActionSelect({ target, value, onChange, error }: { target: AcceptTarget; value: string | null; onChange: (value: string | null) => void; error: string | undefined }) {
  const actions = useActions({ bra_id: target.braId, page_size: 100 });
  const rows = [...(actions.data?.data ?? [])].sort((a, b) => Number(b.bra_risk_scenario_id === target.scenarioId) - Number(a.bra_risk_scenario_id === target.scenarioId));
  const options = rows.map((action) => ({ value: action.id, label: `${action.action}${action.bra_risk_scenario_id === target.scenarioId ? ' (this scenario)' : ''}` }));
  return (
    <Select
      label="Linked mitigation action"
      description="The action expected to bring the risk within appetite, if there is one"
      placeholder={actions.isPending ? 'Loading the actions…' : options.length === 0 ? 'The BRA has no actions' : 'None'}
      data={options}
      value={value}
      onChange={onChange}
      clearable
      searchable
      disabled={options.length === 0 && value === null}
      error={error}
    />
  );
}

/**
 * Accepts a scenario's risk above appetite until a last day, or renews an acceptance (`renewing`) on new
 * terms, which start from the old ones. The service judges the terms: its field messages show by the fields.
 */
export function AcceptRiskForm({ target, renewing, onDone }: { target: AcceptTarget; renewing: RiskAcceptance | null; onDone: (acceptance: RiskAcceptance) => void }) {
  const accept = useAcceptRisk();
  const form = useForm({ initialValues: initialTerms(renewing, utcToday()) });
  const err = (field: string) => fieldError(accept.error, field);
  const verb = renewing ? 'Renew acceptance' : 'Accept risk';
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        accept.mutate(
          { target, renews: renewing?.id ?? null, terms: termsBody(values) },
          {
            onSuccess: (acceptance) => {
              toastDone(`${target.scenarioName} is accepted until ${acceptance.expires_on}.`);
              onDone(acceptance);
            },
          },
        ),
      )}
    >
      <Stack>
        <Textarea label="Rationale" description="Why the risk above appetite is accepted" required autosize minRows={3} maxLength={5000} {...form.getInputProps('rationale')} error={err('rationale')} />
        <DateField
          label="Last day"
          description="The acceptance holds through this day; the risk is unaccepted again the next day"
          required
          {...form.getInputProps('expires_on')}
          error={err('expires_on')}
        />
        <Textarea label="Conditions" description="What must hold meanwhile (optional)" autosize minRows={2} maxLength={5000} {...form.getInputProps('conditions')} error={err('conditions')} />
        <ActionSelect target={target} value={form.values.mitigation_action_id} onChange={(value) => form.setFieldValue('mitigation_action_id', value)} error={err('mitigation_action_id')} />
        <ErrorDisplay error={accept.error} title={renewing ? 'The acceptance was not renewed' : 'The risk was not accepted'} />
        <Group justify="flex-end">
          <Button type="submit" loading={accept.isPending}>{verb}</Button>
        </Group>
      </Stack>
    </form>
  );
}
