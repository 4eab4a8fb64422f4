import { Badge } from '@mantine/core';
import { BRA_STATUSES, type BraStatus } from './api';

const COLORS: Record<BraStatus, string> = { draft: 'gray', in_progress: 'blue', under_review: 'violet', approved: 'green', cancelled: 'red' };

export function BraStatusBadge({ status }: { status: BraStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="bra-status">
      {BRA_STATUSES.find((entry) => entry.value === status)?.label ?? status}
    </Badge>
  );
}
