import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import { queryClient } from './app/query-client';
import { contrastVariables, theme } from './app/theme';
import { toSession } from './features/auth/api';
import { takeMailLink } from './features/auth/mail-link';
import { SsoTestResultScreen, takeSsoTest } from './features/integrations/sso-test-result';
import { setSession } from './lib/session';

// A tested single sign-on lands on its own page: its session is shown and ended there, never kept.
const ssoTest = takeSsoTest(window.location, window.history);
// An invitation or recovery link lands here with its session in the address's fragment: kept, and taken out
// of the address before anything renders.
if (ssoTest === null) {
  takeMailLink(window.location, window.history, window.sessionStorage, (link) => {
    queryClient.clear();
    setSession(toSession({ access_token: link.accessToken, refresh_token: link.refreshToken, expires_in: link.expiresIn }));
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrastVariables}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>{ssoTest === null ? <App /> : <SsoTestResultScreen answer={ssoTest} />}</BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
