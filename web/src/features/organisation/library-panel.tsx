import { Alert, Button, Card, FileInput, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorDisplay } from '../../components/error-display';
import { toast } from '../../components/toast';
import { useExportLibrary, useHasControls, useImportLibrary, useLoadStarterLibrary, type ImportSummary } from './api';
import { ImportRefusals, problemsOf } from './import-refusals';

const counted = (summary: ImportSummary) =>
  `${summary.rows} rows: key controls ${summary.key_controls.created} new, ${summary.key_controls.updated} changed; sub-controls ${summary.sub_controls.created} new, ${summary.sub_controls.updated} changed`;

/** The control library as a file: the starter library for an enterprise without controls, import (checked first, then applied) and export. */
export function LibraryPanel() {
  const hasControls = useHasControls();
  const starter = useLoadStarterLibrary();
  const check = useImportLibrary();
  const apply = useImportLibrary();
  const exporter = useExportLibrary();
  const [file, setFile] = useState<File | null>(null);
  const [lines, setLines] = useState<string[] | null>(null);
  const choose = (chosen: File | null) => {
    setFile(chosen);
    check.reset();
    apply.reset();
    setLines(null);
    if (chosen && !chosen.name.toLowerCase().endsWith('.xlsx')) void chosen.text().then((text) => setLines(text.split(/\r?\n/)));
  };
  const checked = check.data?.dry_run === true ? check.data : null;
  return (
    <Stack>
      {hasControls.data === false && (
        <Card withBorder data-testid="starter-offer">
          <Stack>
            <Title order={2} size="h4">Start from the starter library</Title>
            <Text size="sm">Your enterprise has no controls yet. Load the starter library (common key controls and their sub-controls) and adapt it, or import your own below.</Text>
            <ErrorDisplay error={starter.error} title="The starter library was not loaded" />
            <Group justify="flex-end">
              <Button loading={starter.isPending} onClick={() => starter.mutate(undefined, { onSuccess: () => toast({ title: 'Starter library loaded', message: 'Its controls are on the Controls screen.' }) })}>
                Load the starter library
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">Import a library file</Title>
          <Text size="sm">A CSV or XLSX file with the export's columns (key_control and sub_control required). It is checked first; nothing is written until you apply it, and then all rows or none.</Text>
          <FileInput label="Library file" placeholder="Choose a .csv or .xlsx file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" value={file} onChange={choose} clearable clearButtonProps={{ "aria-label": "Remove the chosen file" }} />
          <Group justify="flex-end">
            <Button variant="default" disabled={file === null} loading={check.isPending} onClick={() => file && check.mutate({ file, dryRun: true })}>Check the file</Button>
            <Button disabled={checked === null || file === null} loading={apply.isPending} onClick={() => file && apply.mutate({ file, dryRun: false }, { onSuccess: (summary) => { toast({ title: 'Library imported', message: counted(summary) }); choose(null); } })}>
              Apply the import
            </Button>
          </Group>
          {checked && <Alert color="green" title="The file can be imported" data-testid="import-checked">{counted(checked)}. Nothing is written yet.</Alert>}
          <ImportRefusals problems={problemsOf(check.error ?? apply.error)} lines={lines} />
          {problemsOf(check.error ?? apply.error).length === 0 && <ErrorDisplay error={check.error ?? apply.error} title="The file was not imported" />}
        </Stack>
      </Card>
      <Card withBorder>
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={2} size="h4">Export the library</Title>
            <Text size="sm" c="dimmed">The same columns the import reads.</Text>
          </Stack>
          <Group gap="xs">
            <Button variant="default" loading={exporter.isPending && exporter.variables === 'csv'} onClick={() => exporter.mutate('csv')}>Export CSV</Button>
            <Button variant="default" loading={exporter.isPending && exporter.variables === 'xlsx'} onClick={() => exporter.mutate('xlsx')}>Export XLSX</Button>
          </Group>
        </Group>
        <ErrorDisplay error={exporter.error} title="The export failed" />
      </Card>
    </Stack>
  );
}
