import { Alert, Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorDisplay } from '../../components/error-display';
import { Loading } from '../../components/page-states';
import { api, unwrap } from '../../lib/api-client';
import { anonKey } from '../../lib/session';
import { readMailLink, type MailLink } from '../auth/mail-link';

/**
 * "Test this connection" (sso-screen.tsx) sends the sign-in's answer here, in a tab of its own. The session it
 * carries is the tested person's: it is shown (who the provider signed in) and ended at once, never kept, so
 * the admin's own session, which every tab of the console shares, stays theirs.
 */
export const SSO_TEST_PATH = '/sso-test';

/** The answer of a tested sign-in, taken out of the address at start (as a mail link is); null on any other page. */
export function takeSsoTest(location: Location, history: History): MailLink | null {
  if (location.pathname !== SSO_TEST_PATH) return null;
  const answer = readMailLink(location.hash);
  history.replaceState(history.state, '', location.pathname);
  return answer ?? { kind: 'refused', code: 'no_answer', description: 'This page holds no sign-in to show: start the test again from Single sign-on.' };
}

/** Who the tested session belongs to, then the session revoked (its tokens are dropped with this page). */
function useTestedPerson(accessToken: string) {
  return useQuery({
    queryKey: ['sso-test', accessToken],
    queryFn: async () => {
      const headers = { apikey: anonKey(), authorization: `Bearer ${accessToken}` };
      const person = await unwrap(api.GET('/auth/v1/user', { headers }));
      await api.POST('/auth/v1/logout', { headers }).catch(() => undefined);
      return person;
    },
    staleTime: Infinity,
    retry: false,
  });
}

function TestedPerson({ accessToken }: { accessToken: string }) {
  const person = useTestedPerson(accessToken);
  if (person.error) return <ErrorDisplay error={person.error} title="The session could not be read" />;
  if (person.data === undefined) return <Loading label="Reading the tested sign-in" />;
  return (
    <Alert color="green" title="The connection works">
      <Text>
        The identity provider signed in <strong>{person.data.user_metadata.full_name}</strong> ({person.data.email}), and the service accepted them.
      </Text>
      <Text mt="xs">This test’s session has been ended. Your own session in this browser is unchanged.</Text>
    </Alert>
  );
}

export function SsoTestResultScreen({ answer }: { answer: MailLink }) {
  return (
    <Center p="xl">
      <Paper withBorder p="lg" maw={560} w="100%">
        <Stack>
          <Title order={1} size="h3">
            Single sign-on test
          </Title>
          {answer.kind === 'session' ? (
            <TestedPerson accessToken={answer.accessToken} />
          ) : (
            <Alert color="red" title="The sign-in was refused">
              {answer.description}
            </Alert>
          )}
          <Text size="sm">
            You can close this tab, or go back to <Anchor href="/integrations/sso">Single sign-on</Anchor>.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
