/** Seeded webhook subscriptions; the seed also starts the store's delivery engine. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { deliveryEngine } from './delivery/engine';
import { type WebhookSubscription, vendorIdOf, webhookState } from './state';

/** Identifiers of the seeded subscriptions. */
export const WEBHOOK_IDS = {
	/** demo owner, Lead Info (ID above 2^53) */
	demoLead: '9007199254745001',
	/** demo owner, Call, ownership-based */
	demoCall: '563172647619608',
	/** demo owner, Task, disabled (not listed) */
	demoDisabled: '563172647619609',
	/** the other agent's, Note */
	otherNote: '563172647619700',
	/** another team's */
	otherTeam: '563172647619800',
} as const;

export function seedWebhooks(store: Store): void {
	const state = webhookState(store);
	const teamId = BigInt(SEED_IDS.teamId);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const t = Date.UTC(2025, 0, 15);
	const add = (id: string, s: Omit<WebhookSubscription, 'subscribeId' | 'vendorId' | 'createdAt'>) =>
		state.subscriptions.set(id, { subscribeId: BigInt(id), vendorId: vendorIdOf(s.appId), createdAt: t, ...s });
	add(WEBHOOK_IDS.demoLead, { teamId, ownerUserId: demo, appId: 'apikey:demo-owner', listId: 2, callbackUrl: 'https://hooks.example.com/lofty/leads', limit: 100, permissionMode: 0, active: true });
	add(WEBHOOK_IDS.demoCall, { teamId, ownerUserId: demo, appId: 'apikey:demo-owner', listId: 6, callbackUrl: 'https://hooks.example.com/lofty/calls', limit: 500, permissionMode: 1, active: true });
	add(WEBHOOK_IDS.demoDisabled, { teamId, ownerUserId: demo, appId: 'apikey:demo-owner', listId: 10, callbackUrl: 'https://gone.example.com/tasks', limit: 100, permissionMode: 0, active: false });
	add(WEBHOOK_IDS.otherNote, { teamId, ownerUserId: other, appId: 'apikey:other-agent', listId: 9, callbackUrl: 'https://other.example.com/notes', limit: 100, permissionMode: 0, active: true });
	add(WEBHOOK_IDS.otherTeam, { teamId: 99001n, ownerUserId: 1n, appId: 'oauth:elsewhere', listId: 2, callbackUrl: 'https://elsewhere.example.com/hook', limit: 100, permissionMode: 0, active: true });
	// The delivery engine (./delivery) of this store: events of sandbox writes go to these subscriptions.
	deliveryEngine(store);
}
