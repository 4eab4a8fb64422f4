import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from './api';

/**
 * Sub-controls never tested or last tested more than a year ago: the assurance gap. The library's list has no
 * filter for "not tested in 12 months", so the link opens the ones never assessed, and says so.
 */
export function UntestedControls({ subControls }: { subControls: Dashboard['sub_controls'] }) {
  const untested = subControls.untested_over_12_months;
  return (
    <Stack gap={4} data-testid="untested-controls">
      <Text fw={700} size="xl" c={untested > 0 ? 'orange.9' : undefined}>
        {untested} of {subControls.total}
      </Text>
      <Text size="sm" c="dimmed">sub-controls never tested or not tested in the last 12 months</Text>
      {untested > 0 && <Anchor component={Link} to="/controls?not_assessed=true" size="sm">Open the sub-controls never assessed</Anchor>}
    </Stack>
  );
}
