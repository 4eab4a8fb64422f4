import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import type { KeyboardEvent } from 'react';

/**
 * The calendar's arrow buttons by name: Mantine leaves them unnamed, which a screen reader announces as
 * "button". The month and year control keeps its visible text ("December 2026") as its name.
 */
const CALENDAR_LABELS = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
};

/**
 * The console's date field: Mantine's DateInput in the service's date format (YYYY-MM-DD), where Enter
 * commits the typed date instead of submitting the form around it (a person typing a date presses Enter to
 * finish the date, not to send a half-filled form). Its open calendar names its buttons and draws every day
 * at full contrast: no dimmed days of the neighbouring months, no weekend colour. A clearable field's clear
 * button is named too.
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
  return <DateInput valueFormat="YYYY-MM-DD" ariaLabels={CALENDAR_LABELS} clearButtonProps={{ 'aria-label': 'Clear the date' }} hideOutsideDates weekendDays={[]} {...props} onKeyDown={keepEnterInField} />;
}
