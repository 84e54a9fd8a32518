/**
 * Subscriptions kept across restarts of a standalone sandbox, as Lofty keeps them across restarts of n8n: n8n
 * subscribes when a workflow is published and, started again with its database, does not subscribe again. The
 * try-out (`npm start`) gives the sandbox a file in its folder (LOFTY_SANDBOX_WEBHOOKS_FILE); the demo data itself
 * starts fresh each time.
 *
 * Kept: the subscriptions made through the API (not the seeded ones), with their IDs, callbacks and settings. The
 * file is written whenever they change (checked twice a second, and once more on stop) and read at start.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Store } from '../../core/store';
import { WEBHOOK_IDS } from './seed';
import { type WebhookSubscription, webhookState } from './state';

interface Stored extends Omit<WebhookSubscription, 'subscribeId' | 'teamId' | 'ownerUserId'> {
	subscribeId: string;
	teamId: string;
	ownerUserId: string;
}

const SEEDED = new Set<string>(Object.values(WEBHOOK_IDS));

/** The subscriptions made through the API, as JSON text (IDs as strings), in ID order. */
export function subscriptionsSnapshot(store: Store): string {
	const kept: Stored[] = [...webhookState(store).subscriptions.values()]
		.filter((s) => !SEEDED.has(s.subscribeId.toString()))
		.sort((a, b) => (a.subscribeId < b.subscribeId ? -1 : 1))
		.map((s) => ({ ...s, subscribeId: s.subscribeId.toString(), teamId: s.teamId.toString(), ownerUserId: s.ownerUserId.toString() }));
	return `${JSON.stringify(kept, null, 2)}\n`;
}

/** Adds the subscriptions of a snapshot (same IDs); later subscriptions get IDs above them. Returns how many. */
export function restoreSubscriptions(store: Store, text: string): number {
	const state = webhookState(store);
	const list = JSON.parse(text) as Stored[];
	if (!Array.isArray(list)) throw new Error('not a list of subscriptions');
	for (const s of list) {
		const sub: WebhookSubscription = { ...s, subscribeId: BigInt(s.subscribeId), teamId: BigInt(s.teamId), ownerUserId: BigInt(s.ownerUserId) };
		state.subscriptions.set(sub.subscribeId.toString(), sub);
		if (sub.subscribeId >= state.nextId) state.nextId = sub.subscribeId + 1n;
	}
	return list.length;
}

export interface KeptSubscriptions {
	/** how many were restored from the file at start */
	restored: number;
	/** writes the file if it changed, and stops watching */
	stop(): void;
}

/** Restores the subscriptions from `file` (when it exists) and keeps the file up to date from then on. */
export function keepSubscriptions(store: Store, file: string, everyMs = 500): KeptSubscriptions {
	let restored = 0;
	if (fs.existsSync(file)) restored = restoreSubscriptions(store, fs.readFileSync(file, 'utf8'));
	let written = subscriptionsSnapshot(store);
	const save = (): void => {
		const now = subscriptionsSnapshot(store);
		if (now === written && fs.existsSync(file)) return;
		fs.mkdirSync(path.dirname(file), { recursive: true });
		const tmp = `${file}.tmp`;
		fs.writeFileSync(tmp, now);
		fs.renameSync(tmp, file);
		written = now;
	};
	save();
	const timer = setInterval(save, everyMs);
	timer.unref();
	return {
		restored,
		stop() {
			clearInterval(timer);
			save();
		},
	};
}
