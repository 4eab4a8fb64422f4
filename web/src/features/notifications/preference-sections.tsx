import { Card, Stack, Text, Title } from '@mantine/core';
import { QueryState } from '../../components/page-states';
import { toast } from '../../components/toast';
import { DeliveryForm, type DeliveryRow, type Source } from './delivery-form';
import { useEnterpriseDefaults, useMyPreferences, useSaveEnterpriseDefaults, useSaveMyPreferences, type ChoiceOf } from './preferences-api';

/** A level's deliveries loaded, then its form; a save says so in a toast. */
function Deliveries({ query, save, own, saved }: {
  query: { isPending: boolean; error: unknown; data: DeliveryRow[] | undefined };
  save: { isPending: boolean; error: unknown; mutate: (choices: ChoiceOf[], options: { onSuccess: () => void }) => void };
  own: Source;
  saved: { title: string; message: string };
}) {
  return (
    <QueryState query={query}>
      {(rows) => (
        <DeliveryForm key={JSON.stringify(rows)} rows={rows} own={own} saving={save.isPending} error={save.error} onSave={(choices) => save.mutate(choices, { onSuccess: () => toast(saved) })} />
      )}
    </QueryState>
  );
}

/** The person's own page: how the service mails them of each kind of notification. */
export function MyNotificationsCard() {
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">Notifications</Title>
        <Text size="sm">
          Everything shows under the bell in the header. Choose how you are mailed of each kind: immediately, in one daily digest, or not at all.
          "Default" follows your enterprise's choice.
        </Text>
        <Deliveries query={useMyPreferences()} save={useSaveMyPreferences()} own="user" saved={{ title: 'Notifications saved', message: 'Your mail follows your new choices.' }} />
      </Stack>
    </Card>
  );
}

/** The organisation's settings (client admins): the mail each member gets of each kind unless they choose otherwise. */
export function NotificationDefaultsPanel() {
  return (
    <Stack maw={720}>
      <Title order={2} size="h4">Notification defaults</Title>
      <Text size="sm">
        How members are mailed of each kind of notification unless they choose otherwise on their profile. "Default" follows the service's.
      </Text>
      <Deliveries
        query={useEnterpriseDefaults()}
        save={useSaveEnterpriseDefaults()}
        own="enterprise"
        saved={{ title: 'Defaults saved', message: 'Members who follow the defaults are mailed accordingly.' }}
      />
    </Stack>
  );
}
