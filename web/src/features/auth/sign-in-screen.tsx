import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from '@mantine/form';
import { ErrorDisplay } from '../../components/error-display';
import { useSignIn, useSsoSignIn } from './api';
import { ForgotPassword } from './forgot-password';

/** Sign-in with the embedded provider (password grant). Part of the first load: keep it light. */
export function SignInScreen() {
  const signIn = useSignIn();
  const [forgot, setForgot] = useState(false);
  const [organisation, setOrganisation] = useState(false);
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
        {organisation ? (
          <Stack>
            <Title order={1} size="h3">
              Your organisation's sign-in
            </Title>
            <OrganisationSignIn onBack={() => setOrganisation(false)} />
          </Stack>
        ) : forgot ? (
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
            <Button variant="default" onClick={() => setOrganisation(true)}>
              Continue with your organisation's sign-in
            </Button>
          </Stack>
        </form>
        )}
      </Paper>
    </Center>
  );
}

/** Single sign-on: the e-mail's domain names the organisation, whose identity provider the browser goes to. */
function OrganisationSignIn({ onBack }: { onBack: () => void }) {
  const start = useSsoSignIn();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : 'Enter your work e-mail address') },
  });
  return (
    <form onSubmit={form.onSubmit((values) => start.mutate({ email: values.email.trim() }, { onSuccess: (answer) => window.location.assign(answer.url) }))}>
      <Stack>
        <Text size="sm" c="dimmed">
          Enter your work e-mail address: you continue at your organisation's identity provider and come back signed in.
        </Text>
        <TextInput label="Work e-mail" type="email" autoComplete="username" {...form.getInputProps('email')} />
        <ErrorDisplay error={start.error} title="Your organisation's sign-in is not available" />
        <Button type="submit" loading={start.isPending}>
          Continue
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to the password sign-in
        </Anchor>
      </Stack>
    </form>
  );
}
