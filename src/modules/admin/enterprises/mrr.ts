import type { SubscriptionTier } from '../../../config.js';

/** D9.1: monthly recurring revenue is the tier's price while the enterprise is active, 0 while inactive. */
export function monthlyRevenueCents(
  enterprise: { status: 'active' | 'inactive'; subscription_tier: SubscriptionTier },
  tierPricesCents: Record<SubscriptionTier, number>,
): number {
  return enterprise.status === 'active' ? tierPricesCents[enterprise.subscription_tier] : 0;
}
