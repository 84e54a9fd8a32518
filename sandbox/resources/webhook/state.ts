/**
 * Webhook subscriptions as the sandbox keeps them: shaped for the delivery engine (./delivery): owner user,
 * team, application, event, callback, batch limit, permission mode, creation time and an `active` flag
 * (a disabled subscription stays stored but is not listed, and can still be deleted).
 */
import type { Store } from '../../core/store';

export const WEBHOOK_EVENTS: Record<number, string> = {
	1: 'Agent Info',
	2: 'Lead Info',
	3: 'Lead Activity',
	4: 'Listing Alert',
	5: 'Transaction',
	6: 'Call',
	7: 'Email',
	8: 'Text',
	9: 'Note',
	10: 'Task',
	11: 'Appointment',
	12: 'Pipeline Change',
};

/** Subscriptions a team may hold (the spec does not give the real number). */
export const MAX_WEBHOOK_SUBSCRIPTIONS = 20;
export const WEBHOOK_LIMIT_DEFAULT = 100;
export const WEBHOOK_LIMIT_MAX = 5000;

export interface WebhookSubscription {
	subscribeId: bigint;
	teamId: bigint;
	/** the user who created it; only they may delete it */
	ownerUserId: bigint;
	/** the calling application (`apikey:...` or `oauth:<clientId>`) and its numeric vendor id */
	appId: string;
	vendorId: number;
	listId: number;
	callbackUrl: string;
	/** most events per delivery batch */
	limit: number;
	/** 0 assignment-based, 1 ownership-based */
	permissionMode: 0 | 1;
	createdAt: number;
	/** false once disabled (410 from the receiver, or failures); a ping can make it active again */
	active: boolean;
}

export class WebhookState {
	subscriptions = new Map<string, WebhookSubscription>();
	nextId = 9007199254750001n;

	/** Active subscriptions of a team for one event type: what a delivery engine would notify. */
	activeFor(teamId: bigint, listId: number): WebhookSubscription[] {
		return [...this.subscriptions.values()].filter((s) => s.active && s.teamId === teamId && s.listId === listId);
	}
}

export const webhookState = (store: Store): WebhookState => store.ext('webhook', () => new WebhookState());

/** A stable positive vendor number for an application name. */
export function vendorIdOf(appId: string): number {
	let h = 7;
	for (const c of appId) h = (h * 31 + c.charCodeAt(0)) % 2_000_000_000;
	return 100000 + h;
}

