import { Button, Group, Stack, Text } from '@mantine/core';
import { ErrorDisplay } from '../../components/error-display';
import { useDownloadBraReport, type ReportFormat } from './api';

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: 'pdf', label: 'Download PDF report' },
  { format: 'xlsx', label: 'Download XLSX report' },
];

/**
 * The BRA's board pack in one click, as a PDF to read or an XLSX workbook to work in: whoever reads the BRA may
 * download it (D5). The service decides what it holds (an approved BRA's snapshot, or live data marked DRAFT).
 */
export function BraReportButton({ braId }: { braId: string }) {
  const report = useDownloadBraReport(braId);
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs">
        {FORMATS.map(({ format, label }) => (
          <Button key={format} variant="default" onClick={() => report.mutate(format)} loading={report.isPending && report.variables === format}>
            {label}
          </Button>
        ))}
      </Group>
      {report.data && <Text size="xs" role="status">Downloaded {report.data}.</Text>}
      <ErrorDisplay error={report.error} title="The report could not be built" />
    </Stack>
  );
}
