import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from '@mantine/form';
import { ErrorDisplay } from '../../components/error-display';
import { useSignIn } from './api';
import { ForgotPassword } from './forgot-password';

/** Sign-in with the embedded provider (password grant). Part of the first load: keep it light. */
export function SignInScreen() {
  const signIn = useSignIn();
  const [forgot, setForgot] = useState(false);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() === '' ? 'Enter your e-mail address' : null),
      password: (value) => (value === '' ? 'Enter your password' : null),
    },
  });
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" radius="md" w="100%" maw={400}>
        {forgot ? (
          <Stack>
            <Title order={1} size="h3">
              Forgot your password?
            </Title>
            <ForgotPassword onBack={() => setForgot(false)} />
          </Stack>
        ) : (
        <form onSubmit={form.onSubmit((values) => signIn.mutate({ email: values.email.trim(), password: values.password }))}>
          <Stack>
            <Title order={1} size="h3">
              Risk Assurance
            </Title>
            <Text size="sm" c="dimmed">
              Sign in with the e-mail address and password your administrator gave you.
            </Text>
            <TextInput label="E-mail" type="email" autoComplete="username" {...form.getInputProps('email')} />
            <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
            <ErrorDisplay error={signIn.error} title="Could not sign in" />
            <Button type="submit" loading={signIn.isPending}>
              Sign in
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => setForgot(true)}>
              Forgot your password?
            </Anchor>
          </Stack>
        </form>
        )}
      </Paper>
    </Center>
  );
}
