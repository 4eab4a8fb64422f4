import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay } from '../../components/error-display';
import { toast } from '../../components/toast';
import { useSetPassword } from './api';

/** The provider's rule (PUT /auth/v1/user): at least 8 characters, at most 1,024. */
export const MIN_PASSWORD_LENGTH = 8;

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `At least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > 1024) return 'At most 1,024 characters';
  return null;
}

/**
 * After an invitation or recovery link: the person is signed in by the link and chooses their password here,
 * before anything else; then the console opens as for any sign-in.
 */
export function SetPasswordScreen({ purpose, onDone }: { purpose: 'invite' | 'recovery'; onDone: () => void }) {
  const set = useSetPassword();
  const form = useForm({
    initialValues: { password: '', confirmation: '' },
    validate: {
      password: passwordProblem,
      confirmation: (value, values) => (value === values.password ? null : 'The two passwords differ'),
    },
  });
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" radius="md" w="100%" maw={420}>
        <form
          onSubmit={form.onSubmit((values) =>
            set.mutate(values.password, {
              onSuccess: () => {
                toast({ title: 'Password set', message: purpose === 'invite' ? 'Welcome: you are signed in.' : 'You are signed in with your new password.' });
                onDone();
              },
            }),
          )}
        >
          <Stack>
            <Title order={1} size="h3">
              {purpose === 'invite' ? 'Welcome: choose your password' : 'Choose a new password'}
            </Title>
            <Text size="sm" c="dimmed">
              {purpose === 'invite'
                ? 'Your invitation is accepted. Choose the password you will sign in with from now on.'
                : 'The link signed you in. Choose a new password; your other sessions end.'}
            </Text>
            <PasswordInput label="New password" description={`At least ${MIN_PASSWORD_LENGTH} characters`} autoComplete="new-password" data-autofocus {...form.getInputProps('password')} />
            <PasswordInput label="Repeat the password" autoComplete="new-password" {...form.getInputProps('confirmation')} />
            <ErrorDisplay error={set.error} title="The password was not set" />
            <Button type="submit" loading={set.isPending}>
              Set password and continue
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
