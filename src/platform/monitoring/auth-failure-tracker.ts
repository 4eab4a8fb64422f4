import type { AlertInput } from './alert-raiser.js';
import { SlidingCounter } from './sliding-counter.js';

const FIVE_MINUTES = 5 * 60_000;
/** D9.5: 10 or more refused sign-ins or tokens within 5 minutes raise a warning; 50 or more an error. */
export const AUTH_WARNING_THRESHOLD = 10;
export const AUTH_ERROR_THRESHOLD = 50;

export interface AuthFailure {
  /** An e-mail (sign-in) or a user id (token of a known user); null when the attempt names no account. */
  account: string | null;
  enterpriseId: string | null;
  ip: string;
}

/**
 * Counts refused sign-ins and tokens per account and per address over 5 minutes (D9.5) and says which
 * `authentication` alerts hold after each one. Pure apart from its counters: the caller supplies the time.
 *
 * One incident, one alert: when every recent failure from an address concerns the same account, the
 * account's alert covers it (its message names the address), so the address alert is not raised too.
 * The address alert is for an address that tries several accounts, or tokens that name no account.
 */
export class AuthFailureTracker {
  private readonly byAccount = new SlidingCounter(FIVE_MINUTES);
  private readonly byAddress = new SlidingCounter(FIVE_MINUTES);
  private readonly byAddressAndAccount = new SlidingCounter(FIVE_MINUTES);

  record(failure: AuthFailure, now: number): AlertInput[] {
    const alerts: AlertInput[] = [];
    // Bounded (an e-mail has at most 254 characters): whatever is counted here ends up in an alert.
    const account = failure.account?.trim().toLowerCase().slice(0, 254) || null;
    const fromAddress = this.byAddress.hit(failure.ip, now);
    let coveredByAccount = false;
    if (account !== null) {
      const forAccount = this.byAccount.hit(account, now);
      const pair = this.byAddressAndAccount.hit(`${failure.ip}\n${account}`, now);
      coveredByAccount = pair >= fromAddress;
      if (forAccount >= AUTH_WARNING_THRESHOLD) {
        alerts.push(authenticationAlert('account', account, forAccount, failure.enterpriseId, failure.ip));
      }
    }
    if (fromAddress >= AUTH_WARNING_THRESHOLD && !coveredByAccount) {
      alerts.push(authenticationAlert('address', failure.ip, fromAddress, null, failure.ip));
    }
    return alerts;
  }

  /** Drops keys whose failures have all aged out (bounded memory under a spray of addresses). */
  sweep(now: number): void {
    this.byAccount.sweep(now);
    this.byAddress.sweep(now);
    this.byAddressAndAccount.sweep(now);
  }
}

function authenticationAlert(
  kind: 'account' | 'address',
  who: string,
  count: number,
  enterpriseId: string | null,
  ip: string,
): AlertInput {
  const escalated = count >= AUTH_ERROR_THRESHOLD;
  const threshold = escalated ? AUTH_ERROR_THRESHOLD : AUTH_WARNING_THRESHOLD;
  return {
    type: 'authentication',
    severity: escalated ? 'error' : 'warning',
    title: kind === 'account' ? 'Repeated refused sign-ins for one account' : 'Repeated refused sign-ins from one address',
    message:
      kind === 'account'
        ? `${threshold} or more refused sign-ins or tokens for account ${who} within 5 minutes (latest from ${ip})`
        : `${threshold} or more refused sign-ins or tokens from address ${who} within 5 minutes`,
    enterpriseId,
    cause: `${kind}:${who}`,
  };
}
