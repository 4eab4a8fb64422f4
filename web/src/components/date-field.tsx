import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import type { KeyboardEvent } from 'react';

/**
 * The console's date field: Mantine's DateInput in the service's date format (YYYY-MM-DD), where Enter
 * commits the typed date instead of submitting the form around it (a person typing a date presses Enter to
 * finish the date, not to send a half-filled form).
 */
export function DateField({ onKeyDown, ...props }: DateInputProps) {
  const keepEnterInField = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      event.currentTarget.blur();
      event.currentTarget.focus();
    }
    onKeyDown?.(event);
  };
  return <DateInput valueFormat="YYYY-MM-DD" {...props} onKeyDown={keepEnterInField} />;
}
