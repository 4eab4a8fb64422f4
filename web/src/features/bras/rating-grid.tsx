import { Box, Text, UnstyledButton } from '@mantine/core';
import { useRef, type KeyboardEvent } from 'react';
import { riskLevelColor } from '../../components/level-colors';

export interface SavedRating {
  impact_score: number;
  likelihood_score: number;
  risk_score: number;
  risk_level: string;
}

const SCORES = [1, 2, 3, 4, 5] as const;

/**
 * The 5×5 impact × likelihood grid of one rating: impact 5 at the top, likelihood 1 on the left. A click
 * picks a cell; the saved rating's cell shows the score and band the service computed, coloured by that
 * band. The grid itself works out no score and no band (STYLE: the server decides).
 *
 * One control for the keyboard (roving tab stop): Tab reaches the picked cell (else the saved one, else
 * the centre), the arrow keys move the pick (up raises impact, right raises likelihood), Home and End go to
 * the row's ends; the other 24 cells are out of the tab order.
 */
export function RatingGrid({ label, saved, selected, onSelect, disabled = false }: {
  label: string;
  saved: SavedRating | null;
  selected: { impact: number; likelihood: number } | null;
  onSelect: (cell: { impact: number; likelihood: number }) => void;
  disabled?: boolean;
}) {
  const cells = useRef(new Map<string, HTMLButtonElement>());
  const current = selected ?? (saved ? { impact: saved.impact_score, likelihood: saved.likelihood_score } : { impact: 3, likelihood: 3 });
  const clamp = (value: number) => Math.min(5, Math.max(1, value));
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, [number, number]> = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };
    let next: { impact: number; likelihood: number } | null = null;
    if (event.key in moves) {
      const [di, dl] = moves[event.key]!;
      next = { impact: clamp(current.impact + di), likelihood: clamp(current.likelihood + dl) };
    } else if (event.key === 'Home') next = { impact: current.impact, likelihood: 1 };
    else if (event.key === 'End') next = { impact: current.impact, likelihood: 5 };
    if (next === null || disabled) return;
    event.preventDefault();
    onSelect(next);
    cells.current.get(`${next.impact}-${next.likelihood}`)?.focus();
  };
  return (
    <Box role="group" aria-label={label} onKeyDown={onKeyDown}>
      <Box style={{ display: 'grid', gridTemplateColumns: 'auto repeat(5, minmax(36px, 1fr))', gap: 4 }}>
        {[...SCORES].reverse().map((impact) => [
          <Text key={`i${impact}`} size="xs" c="dimmed" ta="right" pr={4} style={{ alignSelf: 'center' }} aria-hidden>
            I{impact}
          </Text>,
          ...SCORES.map((likelihood) => {
            const isSaved = saved?.impact_score === impact && saved.likelihood_score === likelihood;
            const isSelected = selected?.impact === impact && selected.likelihood === likelihood;
            const color = isSaved ? riskLevelColor(saved.risk_level) : null;
            return (
              <UnstyledButton
                key={`${impact}-${likelihood}`}
                ref={(element: HTMLButtonElement | null) => {
                  if (element) cells.current.set(`${impact}-${likelihood}`, element);
                }}
                tabIndex={current.impact === impact && current.likelihood === likelihood ? 0 : -1}
                data-testid={`cell-${impact}-${likelihood}`}
                data-saved={isSaved || undefined}
                aria-pressed={isSelected}
                aria-label={`Impact ${impact}, likelihood ${likelihood}${isSaved ? `: saved, score ${saved.risk_score}, ${saved.risk_level}` : ''}`}
                disabled={disabled}
                onClick={() => onSelect({ impact, likelihood })}
                style={{
                  height: 36,
                  borderRadius: 4,
                  textAlign: 'center',
                  fontSize: 12,
                  fontWeight: 600,
                  background: color ? `var(--mantine-color-${color}-4)` : 'var(--mantine-color-gray-1)',
                  color: 'black',
                  outline: isSelected ? '3px solid var(--mantine-color-blue-9)' : undefined,
                  outlineOffset: -3,
                  cursor: disabled ? 'not-allowed' : 'pointer',
                }}
              >
                {isSaved ? saved.risk_score : ''}
              </UnstyledButton>
            );
          }),
        ])}
        <span />
        {SCORES.map((likelihood) => (
          <Text key={`l${likelihood}`} size="xs" c="dimmed" ta="center" aria-hidden>
            L{likelihood}
          </Text>
        ))}
      </Box>
      <Text size="xs" c="dimmed" mt={4}>
        {saved ? `Saved: impact ${saved.impact_score} × likelihood ${saved.likelihood_score} = ${saved.risk_score}, ${saved.risk_level}` : 'Not rated yet'}
      </Text>
    </Box>
  );
}
