import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorDisplay, fieldError } from '../src/components/error-display';
import { ApiError, toApiError } from '../src/lib/api-error';
import { renderWithTheme } from './render';

describe('API errors as readable messages', () => {
  it("a 422 shows the answer's error and each field message", () => {
    const error = toApiError(422, {
      error: 'The request body is not valid',
      code: 'VALIDATION_ERROR',
      request_id: 'req-42',
      details: { fields: [{ field: 'name', message: 'must not be empty' }, { field: 'period', message: 'is required' }] },
    });
    renderWithTheme(<ErrorDisplay error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The request body is not valid');
    expect(alert.textContent).toContain('name: must not be empty');
    expect(alert.textContent).toContain('period: is required');
    expect(alert.textContent).toContain('Request req-42');
    expect(fieldError(error, 'name')).toBe('must not be empty');
    expect(fieldError(error, 'description')).toBeUndefined();
  });

  it("a refusal shows the service's sentence (403, 409)", () => {
    renderWithTheme(<ErrorDisplay error={toApiError(409, { error: 'An approved BRA cannot be cancelled', code: 'INVALID_STATE', request_id: 'r' })} title="The BRA did not move" />);
    expect(screen.getByRole('alert').textContent).toContain('The BRA did not move');
    expect(screen.getByRole('alert').textContent).toContain('An approved BRA cannot be cancelled');
  });

  it("the provider's error shape (sign-in) reads its description", () => {
    const error = toApiError(400, { error: 'invalid_grant', error_description: 'Invalid login credentials' });
    expect(error.message).toBe('Invalid login credentials');
    renderWithTheme(<ErrorDisplay error={error} />);
    expect(screen.getByRole('alert').textContent).toContain('Invalid login credentials');
  });

  it('a body of no known shape, a network failure or a thrown Error still gives a line, never a blank', () => {
    expect(toApiError(502, '<html>Bad gateway</html>').message).toBe('The service answered 502.');
    renderWithTheme(<ErrorDisplay error={new ApiError(0, 'The service cannot be reached.')} />);
    expect(screen.getByRole('alert').textContent).toContain('The service cannot be reached.');
  });

  it('nothing to show when there is no error', () => {
    const { container } = renderWithTheme(<ErrorDisplay error={null} />);
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('field names as the service spells them (body/name, /name) match the form field', () => {
    const error = toApiError(422, { error: 'x', code: 'VALIDATION_ERROR', details: { fields: [{ field: '/due_date', message: 'must be a date' }] } });
    expect(fieldError(error, 'due_date')).toBe('must be a date');
  });
});
