import { Center, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, Navigate, Route, Routes } from 'react-router';
import { ErrorDisplay } from '../components/error-display';
import { Loading } from '../components/page-states';
import { exchangeRefreshToken } from '../features/auth/api';
import { SignInScreen } from '../features/auth/sign-in-screen';
import { LinkRefusedScreen } from '../features/auth/link-refused-screen';
import { pendingMailLink, settleMailLink } from '../features/auth/mail-link';
import { SetPasswordScreen } from '../features/auth/set-password-screen';
import { useMe } from '../features/me/api';
import { CallerContext } from '../features/me/caller-context';
import { getSession, subscribe, useRefresher } from '../lib/session';
import { Layout } from './layout';
import { SCREENS, homeFor } from './routes';

useRefresher(exchangeRefreshToken);

function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(getSession() !== null);
  useEffect(() => subscribe((session) => setSignedIn(session !== null)), []);
  return signedIn;
}

function NotFound() {
  return (
    <Stack align="center" py="xl">
      <Title order={1} size="h3">
        Nothing here
      </Title>
      <Text>
        This address is not a screen of the console. <Link to="/">Go to the start</Link>.
      </Text>
    </Stack>
  );
}

/** A screen of the console the caller's abilities do not open: said as such, not as an unknown address. */
function NoAccess() {
  return (
    <Stack align="center" py="xl" data-testid="no-access">
      <Title order={1} size="h3">
        No access
      </Title>
      <Text>
        Your role does not open this screen. <Link to="/">Go to your start screen</Link>, or ask a client admin for access.
      </Text>
    </Stack>
  );
}

export function App() {
  const signedIn = useSignedIn();
  const me = useMe(signedIn);
  const [mailLink, setMailLink] = useState(() => pendingMailLink(window.sessionStorage));
  const settle = () => {
    settleMailLink(window.sessionStorage);
    setMailLink(null);
  };
  if (mailLink?.kind === 'refused') return <LinkRefusedScreen description={mailLink.description} onContinue={settle} />;
  if (!signedIn) return <SignInScreen />;
  // Signed in by an invitation or recovery link: the password first, then the console.
  if (mailLink?.kind === 'session') return <SetPasswordScreen purpose={mailLink.purpose} onDone={settle} />;
  if (me.error) {
    return (
      <Center p="xl">
        <ErrorDisplay error={me.error} title="Could not load your account" />
      </Center>
    );
  }
  if (me.data === undefined) return <Loading label="Loading your account" />;
  const caller = me.data;
  const opens = (screen: (typeof SCREENS)[number]) => screen.visible(caller);
  return (
    <CallerContext.Provider value={caller}>
      <Layout>
        <Routes>
          {SCREENS.filter((screen) => opens(screen) || screen.path !== '/').map((screen) => (
            <Route key={screen.path} path={screen.path} element={opens(screen) ? <screen.screen /> : <NoAccess />} />
          ))}
          {!SCREENS.some((screen) => screen.path === '/' && opens(screen)) && <Route path="/" element={<Navigate to={homeFor(caller)} replace />} />}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Layout>
    </CallerContext.Provider>
  );
}
