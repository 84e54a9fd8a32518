import { randomUUID } from 'node:crypto';

import { stringifyJson } from '../../../core/json';
import type { WebhookSubscription } from '../state';
import type { Delivery, QueuedEvent, SubscriptionRuntime } from './types';

/** Forms the next batch: due events in order, at most `limit`, one event per object- or scalar-valued key. */
export function formBatch(sub: WebhookSubscription, rt: SubscriptionRuntime, now: number): Delivery | undefined {
	const taken: QueuedEvent[] = [];
	const singles = new Set<string>();
	let scalar = false;
	const rest: QueuedEvent[] = [];
	for (const e of rt.queue) {
		const fits =
			taken.length < sub.limit &&
			e.notBefore <= now &&
			!scalar &&
			!(e.shape === 'scalar' && taken.length > 0) &&
			!(e.shape === 'object' && singles.has(e.key)) &&
			rest.length === 0;
		if (!fits) {
			rest.push(e);
			continue;
		}
		taken.push(e);
		if (e.shape === 'object') singles.add(e.key);
		if (e.shape === 'scalar') scalar = true;
	}
	if (taken.length === 0) return undefined;
	rt.queue = rest;
	const payload: Record<string, unknown> = { listId: sub.listId, teamId: sub.teamId };
	for (const e of taken) {
		if (e.shape === 'array') ((payload[e.key] ??= []) as unknown[]).push(e.data);
		else payload[e.key] = e.data;
	}
	return {
		id: randomUUID(),
		events: taken,
		body: stringifyJson(payload),
		attempts: 0,
		nextAttemptAt: now,
		createdAt: Math.min(...taken.map((e) => e.createdAt)),
	};
}
