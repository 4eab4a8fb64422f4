import { Button, Stack, Text } from '@mantine/core';
import { ErrorDisplay } from '../../components/error-display';
import { useDownloadBraReport } from './api';

/**
 * The BRA's board pack in one click: whoever reads the BRA may download it (D5). The service decides what
 * it holds (an approved BRA's snapshot, or live data marked DRAFT).
 */
export function BraReportButton({ braId }: { braId: string }) {
  const report = useDownloadBraReport(braId);
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="default" onClick={() => report.mutate()} loading={report.isPending}>
        Download PDF report
      </Button>
      {report.data && <Text size="xs" role="status">Downloaded {report.data}.</Text>}
      <ErrorDisplay error={report.error} title="The report could not be built" />
    </Stack>
  );
}
