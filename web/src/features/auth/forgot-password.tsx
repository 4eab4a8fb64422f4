import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorDisplay } from '../../components/error-display';
import { useRecoverPassword } from './api';

/**
 * "Forgot your password?": a recovery mail for an address. The answer is the same whether or not the address
 * has an account (no account enumeration, as the API), so the screen says so.
 */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const recover = useRecoverPassword();
  const form = useForm({ initialValues: { email: '' }, validate: { email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'Enter your e-mail address') } });
  if (recover.isSuccess) {
    return (
      <Stack data-testid="recovery-sent">
        <Text role="status">
          If an account uses {form.values.email.trim()}, a mail with a link to choose a new password is on its way. The link works once, for an hour.
        </Text>
        <Anchor component="button" type="button" onClick={onBack}>Back to sign in</Anchor>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit((values) => recover.mutate(values.email.trim()))}>
      <Stack>
        <Text size="sm" c="dimmed">Enter the e-mail address you sign in with: we send a link to choose a new password.</Text>
        <TextInput label="E-mail" type="email" autoComplete="username" {...form.getInputProps('email')} />
        <ErrorDisplay error={recover.error} title="The mail was not sent" />
        <Button type="submit" loading={recover.isPending}>Send the link</Button>
        <Anchor component="button" type="button" onClick={onBack}>Back to sign in</Anchor>
      </Stack>
    </form>
  );
}
