import type { Me } from '../me/caller-context';

/** Notifications are a member's own (issue 49): a person of an enterprise has them; a super admin has none. */
export const hasNotifications = (caller: Me): boolean => caller.enterprise_id !== null;
