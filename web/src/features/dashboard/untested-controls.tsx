import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from './api';

/** Sub-controls never tested or last tested more than a year ago: the assurance gap, with the list one click away. */
export function UntestedControls({ subControls }: { subControls: Dashboard['sub_controls'] }) {
  const untested = subControls.untested_over_12_months;
  return (
    <Stack gap={4} data-testid="untested-controls">
      <Text fw={700} size="xl" c={untested > 0 ? 'orange.9' : undefined}>
        {untested} of {subControls.total}
      </Text>
      <Text size="sm" c="dimmed">sub-controls never tested or not tested in the last 12 months</Text>
      {untested > 0 && <Anchor component={Link} to="/controls?untested=true" size="sm">Open the untested sub-controls</Anchor>}
    </Stack>
  );
}
