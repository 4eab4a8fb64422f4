import { Select } from '@mantine/core';
import { useLegalEntities } from './api';

/** The legal-entity filter every scoped screen offers; empty means "all I may see". */
export function EntitySelect({ value, onChange, label = 'Legal entity', allLabel = 'All legal entities', required = false }: {
  value: string | null;
  onChange: (value: string | null) => void;
  label?: string;
  allLabel?: string;
  required?: boolean;
}) {
  const entities = useLegalEntities();
  return (
    <Select
      label={label}
      placeholder={required ? 'Choose a legal entity' : allLabel}
      data={(entities.data ?? []).map((entity) => ({ value: entity.id, label: entity.name }))}
      value={value}
      onChange={onChange}
      clearable={!required}
      withAsterisk={required}
      searchable
      disabled={entities.isPending}
      error={entities.error ? 'Could not load the legal entities' : undefined}
      miw={200}
    />
  );
}
