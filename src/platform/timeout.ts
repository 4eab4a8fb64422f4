/**
 * The promise's outcome, or a rejection ('timed out') after `ms`. The timer is cleared either way, so a
 * settled promise leaves nothing behind that keeps the process alive. The promise itself is not cancelled.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
