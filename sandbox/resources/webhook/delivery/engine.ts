/**
 * The sandbox's webhook delivery engine, written from api-spec.md ("Events", "States and transitions >
 * Webhook subscription and delivery", "Limits"):
 *
 * - sandbox writes emit events (see `emit.ts`); each goes to the subscriptions of its team and
 *   event type whose owner may receive it (`recipients.ts`, permissionMode);
 * - events are batched per subscription, at most `limit` per request, as
 *   `{listId, teamId, createdLead: [...], updatedLead: [...]}`; note updates and deletes are objects
 *   (`updatedNote`, `deletedNote`), so a batch holds at most one of each; a listing alert is
 *   `{listId: 4, teamId, alertId}` alone;
 * - every request carries `Service-Webhook-Id`, fixed when the batch is formed and stable across retries;
 * - 2xx delivered; 408, 429, 5xx, timeouts and connection errors retried after 30 s, 2 min, 10 min,
 *   30 min, 2 h, 6 h, 12 h, 24 h (±20% jitter), 9 attempts at most; `Retry-After` on a 429 is honoured
 *   within 60 s .. 1 h; 410 disables the subscription at once; other 4xx discard the batch;
 * - failures with no success in between for a day (6 hours with a backlog of 1,000 events) disable
 *   the subscription; a disabled subscription gets `{eventType: "ping", webhookId}` every 6 hours, and
 *   the first 2xx re-enables it and releases its pending events at once;
 * - events expire 48 hours after creation, delivered or not;
 * - one request in flight per subscription; a batch waiting for its retry does not hold back newer ones.
 *
 * Time is a `DeliveryClock` (the store's clock plus an offset tests can advance). By default nothing
 * happens on its own: tests call `flush()` (deliver what is due now) or `advance(ms)` (move the clock,
 * delivering everything that falls due on the way). `autoDeliver` runs the same on real timers
 * (standalone sandbox). Callbacks are only ever sent to loopback hosts unless `loopbackOnly` is false;
 * others count as connection errors, so seeded subscriptions to example.com never reach the network.
 */

import { stringifyJson } from '../../../core/json';
import type { Store } from '../../../core/store';
import { type WebhookSubscription, webhookState } from '../state';
import { formBatch } from './batch';
import { DeliveryClock } from './clock';
import { isLoopbackUrl, postCallback } from './post';
import { receives } from './recipients';
import {
	DISABLE_AFTER_HIGH_VOLUME_MS,
	DISABLE_AFTER_MS,
	EVENT_TTL_MS,
	HIGH_VOLUME_BACKLOG,
	MAX_ATTEMPTS,
	PING_INTERVAL_MS,
	retryAfterDelay,
	retryDelay,
	verdictOf,
} from './schedule';
import type { Delivery, DeliveryLogEntry, DeliveryOptions, EventInput, SubscriptionRuntime } from './types';

const configs = new WeakMap<Store, DeliveryOptions>();
const engines = new WeakMap<Store, DeliveryEngine>();

/** Options of a sandbox's delivery engine; they survive `reset()`. */
export function configureDelivery(store: Store, options: DeliveryOptions): DeliveryEngine {
	configs.set(store, { ...configs.get(store), ...options });
	const engine = deliveryEngine(store);
	engine.applyOptions();
	return engine;
}

export function deliveryOptions(store: Store): DeliveryOptions {
	return configs.get(store) ?? {};
}

/** The engine of a store (a new one after the store is cleared, e.g. by `sandbox.reset()`). */
export function deliveryEngine(store: Store): DeliveryEngine {
	const marker = store.ext<object>('webhookDelivery', () => ({}));
	let engine = engines.get(store);
	if (!engine || engine.marker !== marker) {
		engine?.stopTimers();
		engine = new DeliveryEngine(store, marker);
		engines.set(store, engine);
	}
	return engine;
}

export class DeliveryEngine {
	readonly clock: DeliveryClock;
	/** every attempt, ping and expiry, oldest first */
	readonly log: DeliveryLogEntry[] = [];
	private runtimes = new Map<string, SubscriptionRuntime>();
	private timer: ReturnType<typeof setInterval> | undefined;
	private flushing: Promise<void> | undefined;
	private garble = { left: 0, contentType: 'application/json' };

	constructor(
		private readonly store: Store,
		readonly marker: object,
	) {
		this.clock = new DeliveryClock(store);
		this.applyOptions();
	}

	private get options(): DeliveryOptions {
		return deliveryOptions(this.store);
	}

	/** Starts or stops the real-time timers after a change of options. */
	applyOptions(): void {
		if (this.options.autoDeliver && !this.timer) {
			this.timer = setInterval(() => {
				if (engines.get(this.store) !== this) return this.stopTimers();
				void this.flush();
			}, 1000);
			this.timer.unref();
		} else if (!this.options.autoDeliver) this.stopTimers();
	}

	stopTimers(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	/** Queues an event for every subscription that should receive it. */
	emit(input: EventInput): number {
		const now = this.clock.now();
		let queued = 0;
		for (const sub of webhookState(this.store).subscriptions.values()) {
			if (sub.listId !== input.listId || !receives(this.store, sub, input.teamId, input.leadId)) continue;
			this.runtime(sub).queue.push({
				key: input.key,
				shape: input.shape ?? 'array',
				data: input.data,
				createdAt: now,
				notBefore: Math.max(now, input.notBefore ?? now),
			});
			queued++;
		}
		if (queued > 0 && this.options.autoDeliver) setImmediate(() => void this.flush());
		return queued;
	}

	/**
	 * A fault switch: the next `count` event deliveries (attempts) sent go out cut in half, so that the body is not
	 * JSON, as `contentType` (default application/json). Their Service-Webhook-Id is unchanged; retries are whole.
	 */
	garbleNext(count: number, contentType = 'application/json'): void {
		this.garble = { left: count, contentType };
	}

	/** Events waiting for a subscription (queued or in its current batch). */
	pending(subscribeId: string | bigint): number {
		const rt = this.runtimes.get(String(subscribeId));
		return rt ? rt.queue.length + rt.deliveries.reduce((n, d) => n + d.events.length, 0) : 0;
	}

	/** The batches waiting for a subscription: Service-Webhook-Id, attempts so far, next attempt time. */
	pendingDeliveries(subscribeId: string | bigint): Array<{ id: string; attempts: number; nextAttemptAt: number; eventCount: number }> {
		const list = this.runtimes.get(String(subscribeId))?.deliveries ?? [];
		return list.map((d) => ({ id: d.id, attempts: d.attempts, nextAttemptAt: d.nextAttemptAt, eventCount: d.events.length }));
	}

	/** When the next ping of a disabled subscription is due. */
	nextPingAt(subscribeId: string | bigint): number | null {
		const sub = webhookState(this.store).subscriptions.get(String(subscribeId));
		return sub ? this.runtime(sub).nextPingAt : null;
	}

	/** Delivers everything that is due at the clock's current time (including what falls due meanwhile). */
	async flush(): Promise<void> {
		while (this.flushing) await this.flushing;
		this.flushing = this.runDue().finally(() => {
			this.flushing = undefined;
		});
		await this.flushing;
	}

	/** Moves the clock forward by `ms`, delivering, retrying, pinging and expiring at each due time on the way. */
	async advance(ms: number): Promise<void> {
		const target = this.clock.now() + ms;
		await this.flush();
		for (let guard = 0; guard < 100_000; guard++) {
			const next = this.nextDueTime();
			if (next === undefined || next > target) break;
			this.clock.set(next);
			await this.flush();
		}
		this.clock.set(target);
		await this.flush();
	}

	private runtime(sub: WebhookSubscription): SubscriptionRuntime {
		const id = sub.subscribeId.toString();
		let rt = this.runtimes.get(id);
		if (!rt) {
			rt = { queue: [], deliveries: [], inFlight: false, failingSince: null, nextPingAt: null };
			this.runtimes.set(id, rt);
		}
		if (!sub.active && rt.nextPingAt === null) rt.nextPingAt = this.clock.now() + PING_INTERVAL_MS;
		return rt;
	}

	private live(): Array<[WebhookSubscription, SubscriptionRuntime]> {
		const subs = webhookState(this.store).subscriptions;
		for (const id of this.runtimes.keys()) if (!subs.has(id)) this.runtimes.delete(id);
		return [...subs.values()].map((sub) => [sub, this.runtime(sub)]);
	}

	private nextDueTime(): number | undefined {
		let next: number | undefined;
		const consider = (t: number) => {
			if (next === undefined || t < next) next = t;
		};
		for (const [sub, rt] of this.live()) {
			for (const e of rt.queue) consider(sub.active ? e.notBefore : e.createdAt + EVENT_TTL_MS);
			for (const d of rt.deliveries) consider(sub.active ? d.nextAttemptAt : d.createdAt + EVENT_TTL_MS);
			if (!sub.active && rt.nextPingAt !== null) consider(rt.nextPingAt);
		}
		return next;
	}

	private async runDue(): Promise<void> {
		for (let round = 0; round < 100_000; round++) {
			const now = this.clock.now();
			const work: Array<Promise<void>> = [];
			for (const [sub, rt] of this.live()) {
				if (rt.inFlight) continue;
				this.expire(sub, rt, now);
				if (!sub.active) {
					if (rt.nextPingAt !== null && rt.nextPingAt <= now) work.push(this.ping(sub, rt));
					continue;
				}
				for (let batch = formBatch(sub, rt, now); batch; batch = formBatch(sub, rt, now)) rt.deliveries.push(batch);
				// one request in flight per subscription: the due batch that waited longest goes first
				const due = rt.deliveries.filter((d) => d.nextAttemptAt <= now).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)[0];
				if (due) work.push(this.attempt(sub, rt, due));
			}
			if (work.length === 0) return;
			await Promise.all(work);
		}
	}

	private expire(sub: WebhookSubscription, rt: SubscriptionRuntime, now: number): void {
		const expired = rt.queue.filter((e) => e.createdAt + EVENT_TTL_MS <= now);
		if (expired.length) {
			rt.queue = rt.queue.filter((e) => e.createdAt + EVENT_TTL_MS > now);
			this.record(sub, { kind: 'events', eventCount: expired.length, outcome: 'expired' });
		}
		for (const d of rt.deliveries.filter((x) => x.createdAt + EVENT_TTL_MS <= now)) {
			this.record(sub, { kind: 'events', deliveryId: d.id, eventCount: d.events.length, outcome: 'expired', body: d.body });
			this.drop(rt, d);
		}
	}

	private drop(rt: SubscriptionRuntime, delivery: Delivery): void {
		rt.deliveries = rt.deliveries.filter((d) => d !== delivery);
	}

	private async attempt(sub: WebhookSubscription, rt: SubscriptionRuntime, delivery: Delivery): Promise<void> {
		rt.inFlight = true;
		try {
			delivery.attempts++;
			// only deliveries that are really sent (seeded subscriptions to example.com never are)
			const garbled = this.garble.left > 0 && (isLoopbackUrl(sub.callbackUrl) || this.options.loopbackOnly === false);
			const headers: Record<string, string> = { 'Service-Webhook-Id': delivery.id };
			if (garbled) {
				this.garble.left--;
				headers['Content-Type'] = this.garble.contentType;
			}
			const body = garbled ? delivery.body.slice(0, Math.ceil(delivery.body.length / 2)) : delivery.body;
			const result = await postCallback(sub.callbackUrl, body, headers, this.options);
			const now = this.clock.now();
			const base = { time: now, kind: 'events' as const, deliveryId: delivery.id, attempt: delivery.attempts, eventCount: delivery.events.length, status: result.status, body, answer: result.answer, error: result.error };
			switch (verdictOf(result.status)) {
				case 'delivered':
					this.drop(rt, delivery);
					rt.failingSince = null;
					this.record(sub, { ...base, outcome: 'delivered' });
					return;
				case 'discard':
					this.drop(rt, delivery);
					this.record(sub, { ...base, outcome: 'discarded' });
					return;
				case 'disable':
					// the batch stays pending: a ping that succeeds releases it
					this.disable(sub, rt, now);
					this.record(sub, { ...base, outcome: 'disabled' });
					return;
				case 'retry': {
					const exhausted = delivery.attempts >= MAX_ATTEMPTS;
					if (exhausted) this.drop(rt, delivery);
					else {
						const asked = result.status === 429 ? retryAfterDelay(result.retryAfter, now) : undefined;
						delivery.nextAttemptAt = now + (asked ?? retryDelay(delivery.attempts, this.options.random ?? Math.random));
					}
					rt.failingSince ??= now;
					const backlog = rt.queue.length + rt.deliveries.reduce((n, d) => n + d.events.length, 0);
					const window = backlog >= HIGH_VOLUME_BACKLOG ? DISABLE_AFTER_HIGH_VOLUME_MS : DISABLE_AFTER_MS;
					const next = exhausted ? undefined : delivery.nextAttemptAt;
					if (now - rt.failingSince >= window) {
						this.disable(sub, rt, now);
						for (const d of rt.deliveries) d.nextAttemptAt = now;
						this.record(sub, { ...base, outcome: exhausted ? 'exhausted' : 'disabled', nextAttemptAt: next });
						if (exhausted) this.record(sub, { kind: 'events', eventCount: 0, outcome: 'disabled' });
						return;
					}
					this.record(sub, { ...base, outcome: exhausted ? 'exhausted' : 'retry-scheduled', nextAttemptAt: next });
					return;
				}
			}
		} finally {
			rt.inFlight = false;
		}
	}

	private disable(sub: WebhookSubscription, rt: SubscriptionRuntime, now: number): void {
		sub.active = false;
		rt.nextPingAt = now + PING_INTERVAL_MS;
	}

	private async ping(sub: WebhookSubscription, rt: SubscriptionRuntime): Promise<void> {
		rt.inFlight = true;
		try {
			const body = stringifyJson({ eventType: 'ping', webhookId: sub.subscribeId });
			const result = await postCallback(sub.callbackUrl, body, {}, this.options);
			const now = this.clock.now();
			const base = { time: now, kind: 'ping' as const, eventCount: 0, status: result.status, body, answer: result.answer, error: result.error };
			if (typeof result.status === 'number' && result.status >= 200 && result.status < 300) {
				sub.active = true;
				rt.failingSince = null;
				rt.nextPingAt = null;
				// pending events are delivered immediately
				for (const d of rt.deliveries) d.nextAttemptAt = now;
				for (const e of rt.queue) e.notBefore = Math.min(e.notBefore, now);
				this.record(sub, { ...base, outcome: 'revived' });
			} else {
				rt.nextPingAt = now + PING_INTERVAL_MS;
				this.record(sub, { ...base, outcome: 'ping-failed' });
			}
		} finally {
			rt.inFlight = false;
		}
	}

	private record(sub: WebhookSubscription, entry: Omit<DeliveryLogEntry, 'time' | 'subscribeId' | 'listId' | 'callbackUrl'> & { time?: number }): void {
		this.log.push({ time: this.clock.now(), subscribeId: sub.subscribeId.toString(), listId: sub.listId, callbackUrl: sub.callbackUrl, ...entry });
	}
}
