import { AppError } from '../errors/app-error.js';
import { refusedStringField } from './body-strings.js';

/**
 * JSON may carry a lone UTF-16 surrogate (`"x\ud800y"`), which is no character and has no UTF-8 form. The
 * driver would store it as U+FFFD in a text column (silently changing what was sent), and PostgreSQL refuses
 * it inside jsonb (22P02), so the same input was stored changed on a create and answered 500 on an update
 * (its audit entry). One rule for both: refused at the edge, 422 naming the field.
 */
// With the u flag a paired surrogate is one astral code point; only an unpaired one is a Cs code point.
const UNPAIRED = /\p{Cs}/u;
const wellFormed = (text: string) => !UNPAIRED.test(text);

export const unpairedSurrogateField = (value: unknown): string | null =>
  refusedStringField(value, (text) => !wellFormed(text), (path) => path.replace(/\p{Cs}/gu, '\uFFFD'));

export function unpairedSurrogateError(field: string): AppError {
  return new AppError('VALIDATION_ERROR', `Request body failed validation: ${field} must be valid Unicode text`, {
    fields: [{ field, message: 'must be valid Unicode text (no unpaired UTF-16 surrogate)' }],
  });
}
