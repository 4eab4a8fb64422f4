/**
 * Colours for the labels the service gives (risk levels, effectiveness labels, statuses). A label the
 * console does not know is grey: the service may add one, and the console draws it rather than guess.
 */
const RISK_LEVEL: Record<string, string> = { Low: 'green', Medium: 'yellow', High: 'orange', 'Very High': 'red' };
const EFFECTIVENESS: Record<string, string> = {
  'Highly Effective': 'teal',
  Effective: 'green',
  'Moderately Effective': 'yellow',
  'Less Effective': 'orange',
  'Not Effective': 'red',
};

export const riskLevelColor = (level: string | null | undefined) => (level ? (RISK_LEVEL[level] ?? 'gray') : 'gray');
export const effectivenessColor = (label: string | null | undefined) => (label ? (EFFECTIVENESS[label] ?? 'gray') : 'gray');


/** A badge that keeps its whole label in a table: the table scrolls sideways before a label is cut short. */
export const WHOLE_BADGE = { minWidth: 'max-content' } as const;
