import { Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay } from '../../components/error-display';
import { ScreenTitle } from '../../components/page-states';
import { toast } from '../../components/toast';
import { formatTime } from '../../lib/format';
import { useProviderUser, useRename, useSetPassword, useSignOutOthers } from '../auth/api';
import { passwordProblem } from '../auth/set-password-screen';
import { ConfirmButton } from '../../components/confirm-button';
import { useCaller } from './caller-context';
import { MyNotificationsCard } from '../notifications/preference-sections';
import { hasNotifications } from '../notifications/who';

/** The signed-in person's own account: their name, their password, how they are mailed, and their other sessions. */
export function ProfileScreen() {
  const caller = useCaller();
  return (
    <>
      <ScreenTitle>Your profile</ScreenTitle>
      <Stack maw={560}>
        <NameCard name={caller.full_name} email={caller.email} />
        <PasswordCard />
        {hasNotifications(caller) && <MyNotificationsCard />}
        <SessionsCard />
      </Stack>
    </>
  );
}

function NameCard({ name, email }: { name: string; email: string }) {
  const rename = useRename();
  const account = useProviderUser();
  const form = useForm({
    initialValues: { full_name: name },
    validate: { full_name: (value) => (value.trim().length === 0 ? 'Enter your name' : value.trim().length > 200 ? 'At most 200 characters' : null) },
  });
  return (
    <Card withBorder>
      <form onSubmit={form.onSubmit((values) => rename.mutate(values.full_name.trim(), { onSuccess: () => toast({ title: 'Name changed', message: `Others now see you as ${values.full_name.trim()}.` }) }))}>
        <Stack>
          <Title order={2} size="h4">Name</Title>
          <TextInput label="Your name" {...form.getInputProps('full_name')} />
          <Text size="sm">E-mail: {email} <Text span c="dimmed">(an administrator changes it)</Text></Text>
          {account.data?.last_sign_in_at && <Text size="sm" c="dimmed">Last signed in {formatTime(account.data.last_sign_in_at)}</Text>}
          <ErrorDisplay error={rename.error} title="The name was not changed" />
          <Group justify="flex-end"><Button type="submit" loading={rename.isPending}>Save name</Button></Group>
        </Stack>
      </form>
    </Card>
  );
}

function PasswordCard() {
  const set = useSetPassword();
  const form = useForm({
    initialValues: { password: '', confirmation: '' },
    validate: { password: passwordProblem, confirmation: (value, values) => (value === values.password ? null : 'The two passwords differ') },
  });
  return (
    <Card withBorder>
      <form onSubmit={form.onSubmit((values) => set.mutate(values.password, { onSuccess: () => { form.reset(); toast({ title: 'Password changed', message: 'Your other sessions have ended; this one stays signed in.' }); } }))}>
        <Stack>
          <Title order={2} size="h4">Password</Title>
          <PasswordInput label="New password" description="At least 8 characters" autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordInput label="Repeat the password" autoComplete="new-password" {...form.getInputProps('confirmation')} />
          <ErrorDisplay error={set.error} title="The password was not changed" />
          <Group justify="flex-end"><Button type="submit" loading={set.isPending}>Change password</Button></Group>
        </Stack>
      </form>
    </Card>
  );
}

function SessionsCard() {
  const others = useSignOutOthers();
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">Other sessions</Title>
        <Text size="sm">Signed in on another browser or device you no longer use? End every session but this one.</Text>
        <ErrorDisplay error={others.error} title="The other sessions were not ended" />
        <Group justify="flex-end">
          <ConfirmButton
            label="Sign out of other sessions"
            title="Sign out everywhere else?"
            loading={others.isPending}
            onConfirm={() => others.mutate(undefined, { onSuccess: () => toast({ title: 'Other sessions ended', message: 'Only this browser is signed in now.' }) })}
          >
            Every other browser and device signed in as you is signed out. This one stays.
          </ConfirmButton>
        </Group>
      </Stack>
    </Card>
  );
}
