import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, type ReactNode } from 'react';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { Loading } from '../components/page-states';
import { useSignOut } from '../features/auth/api';
import { useCaller } from '../features/me/caller-context';
import { NotificationBell } from '../features/notifications/notification-bell';
import { hasNotifications } from '../features/notifications/who';
import { SCREENS } from './routes';

const ROLE_NAMES = { super_admin: 'Super admin', admin: 'Client admin', assessor: 'Assessor', reviewer: 'Reviewer' } as const;

/** The signed-in frame: a header with who is signed in, the navigation (a drawer on a phone), the screen. */
export function Layout({ children }: { children: ReactNode }) {
  const caller = useCaller();
  const [opened, { toggle, close }] = useDisclosure();
  const signOut = useSignOut();
  const location = useLocation();
  const links = SCREENS.filter((screen) => screen.label !== undefined && screen.visible(caller));
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={2} size="h4">
              Risk Assurance
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="sm" data-testid="signed-in-as">
              {caller.full_name} · {ROLE_NAMES[caller.role]}
              {caller.enterprise_name ? ` · ${caller.enterprise_name}` : ''}
            </Text>
            {hasNotifications(caller) && <NotificationBell />}
            <Button component={RouterLink} to="/profile" variant="subtle" size="xs">
              Profile
            </Button>
            <Button variant="default" size="xs" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens">
        {links.map((screen) => (
          <NavLink
            key={screen.path}
            component={RouterLink}
            to={screen.path}
            label={screen.label}
            onClick={close}
            variant="filled"
            active={screen.path === '/' ? location.pathname === '/' : location.pathname.startsWith(screen.path)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
