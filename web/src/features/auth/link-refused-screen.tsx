import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';

/**
 * A mail link the provider refused (used, expired or replaced by a newer one): said in words, with the way to
 * a new one. The provider's own description is shown too, for whoever helps.
 */
export function LinkRefusedScreen({ description, onContinue }: { description: string; onContinue: () => void }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" radius="md" w="100%" maw={460} data-testid="link-refused">
        <Stack>
          <Title order={1} size="h3">
            This link can no longer be used
          </Title>
          <Text>A link from an invitation or a password mail works once, for a limited time, and only the newest one sent works.</Text>
          <Text>
            If you were invited, ask your administrator to resend the invitation. If you already have a password, sign in, or use
            “Forgot your password?” on the sign-in screen for a new link.
          </Text>
          <Text size="sm" c="dimmed">
            The service said: {description}
          </Text>
          <Button onClick={onContinue}>Go to sign in</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
