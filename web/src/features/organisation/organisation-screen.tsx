import { Tabs } from '@mantine/core';
import { ScreenTitle } from '../../components/page-states';
import { EntitiesPanel } from './entities-panel';
import { LibraryPanel } from './library-panel';
import { NotificationDefaultsPanel } from '../notifications/preference-sections';
import { ScenariosPanel } from './scenarios-panel';

/** A client admin sets the enterprise up: its legal entities and units, its risk scenarios, its control library, its notification defaults. */
export function OrganisationScreen() {
  return (
    <>
      <ScreenTitle>Organisation</ScreenTitle>
      <Tabs defaultValue="entities" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="entities">Legal entities and units</Tabs.Tab>
          <Tabs.Tab value="scenarios">Risk scenarios</Tabs.Tab>
          <Tabs.Tab value="library">Control library</Tabs.Tab>
          <Tabs.Tab value="notifications">Notification defaults</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="entities"><EntitiesPanel /></Tabs.Panel>
        <Tabs.Panel value="scenarios"><ScenariosPanel /></Tabs.Panel>
        <Tabs.Panel value="library"><LibraryPanel /></Tabs.Panel>
        <Tabs.Panel value="notifications"><NotificationDefaultsPanel /></Tabs.Panel>
      </Tabs>
    </>
  );
}
