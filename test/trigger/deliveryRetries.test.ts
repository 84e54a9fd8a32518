/**
 * The sandbox's webhook delivery engine against api-spec.md's delivery rules, each rule named by a test: a
 * garbled delivery, retries and their schedule, disabling, pings and expiry.
 * Deliveries go over loopback to scripted receivers; the engine's clock is advanced instead of waited for.
 */
import { configureDelivery, emitLead, webhookDelivery } from '../../sandbox/resources/webhook/delivery';
import { DAY, HOUR, MINUTE, RETRY_DELAYS_MS, SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { ScriptedReceiver } from '../harness/receiver';
import { api, engine, isActive, lead, logOf, receiver, receivers, sb, setEngine, subscribe, useDeliverySandbox } from '../harness/deliverySandbox';
import { HUNG_MS } from '../harness/budgets';

useDeliverySandbox();

describe('fault switch: garbleNext', () => {
	it('sends the next delivery cut in half with the given content type, then whole again under the same Service-Webhook-Id', async () => {
		const r = await receiver([500, 200]);
		const id = await subscribe(2, r.url);
		engine.garbleNext(1, 'text/plain');
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(40 * SECOND);
		expect(r.deliveries.map((d) => [d.headers['content-type'], d.json === undefined])).toEqual([
			['text/plain', true],
			['application/json', false],
		]);
		expect(new Set(logOf(id).map((e) => e.deliveryId)).size).toBe(1);
	});
});

describe('retries', () => {
	it('follows the retry schedule 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, 24 h: 9 attempts, then the event is given up', async () => {
		// One event always fails while the others of the stream succeed (so the subscription stays enabled).
		const r = await new ScriptedReceiver([], (req) => (req.text.includes('"updateTime":1}') ? 500 : 200)).start();
		receivers.push(r);
		const id = await subscribe(2, r.url);
		const l = lead();
		emitLead(sb.store, 'updated', l, 1);
		await engine.flush();
		for (let hour = 0; hour < 47; hour++) {
			emitLead(sb.store, 'updated', l, 1000 + hour);
			await engine.advance(HOUR);
		}
		const failing = logOf(id).filter((e) => e.body?.includes('"updateTime":1}'));
		expect(failing.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(new Set(failing.map((e) => e.deliveryId)).size).toBe(1);
		const gaps = failing.slice(1).map((e, i) => e.time - failing[i].time);
		expect(gaps).toEqual(RETRY_DELAYS_MS);
		expect(failing[8].outcome).toBe('exhausted');
		expect(isActive(id)).toBe(true);
		expect(engine.pending(id)).toBe(0);
	});

	it('puts about ±20% jitter on each delay', async () => {
		for (const [random, factor] of [[0, 0.8], [0.999999, 1.2]] as const) {
			sb.reset();
			configureDelivery(sb.store, { random: () => random });
			setEngine(webhookDelivery(sb));
			const r = await receiver([500]);
			const id = await subscribe(2, r.url);
			emitLead(sb.store, 'updated', lead(), 1);
			await engine.flush();
			const first = logOf(id)[0];
			expect((first.nextAttemptAt! - first.time) / RETRY_DELAYS_MS[0]).toBeCloseTo(factor, 3);
		}
		configureDelivery(sb.store, { random: () => 0.5 });
	});

	it.each([408, 429, 500, 502, 503, 504])('retries a %i answer', async (status) => {
		const r = await receiver([status, 200]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(2 * MINUTE);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['retry-scheduled', 'delivered']);
		expect(r.deliveries).toHaveLength(2);
	});

	it('retries a timeout and a connection error', async () => {
		const slow = await receiver([{ status: 200, delayMs: HUNG_MS }, 200]);
		const slowId = await subscribe(2, slow.url);
		const refused = await subscribe(2, 'http://127.0.0.1:9/hook');
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(logOf(slowId)[0]).toMatchObject({ status: 'timeout', outcome: 'retry-scheduled' });
		expect(logOf(refused)[0]).toMatchObject({ status: 'error', outcome: 'retry-scheduled' });
		await engine.advance(40 * SECOND);
		expect(logOf(slowId)[1]).toMatchObject({ status: 200, outcome: 'delivered' });
	});

	it.each([400, 401, 403, 404, 422])('discards the event on any other 4xx (%i), without retry', async (status) => {
		const r = await receiver([status]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(DAY);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['discarded']);
		expect(isActive(id)).toBe(true);
	});

	it('honours Retry-After on a 429 within 60 s to 1 h', async () => {
		const cases: Array<[string, number]> = [['5', MINUTE], ['120', 2 * MINUTE], ['7200', HOUR]];
		for (const [retryAfter, expected] of cases) {
			const r = await receiver([{ status: 429, headers: { 'Retry-After': retryAfter } }, 200]);
			const id = await subscribe(2, r.url);
			emitLead(sb.store, 'updated', lead(), 1);
			await engine.flush();
			const first = logOf(id)[0];
			expect(first.nextAttemptAt! - first.time).toBe(expected);
		}
	});
});

describe('disabling, pings and expiry', () => {
	it('410 disables the subscription at once; it is no longer listed and gets no attempts', async () => {
		const r = await receiver([410]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(logOf(id).map((e) => e.outcome)).toEqual(['disabled']);
		expect(isActive(id)).toBe(false);
		const listed = await api().get('/v1.0/webhooks');
		expect(listed.body.map((s: { subscribeId: bigint }) => String(s.subscribeId))).not.toContain(id);
		emitLead(sb.store, 'updated', lead(), 2);
		await engine.advance(5 * HOUR);
		expect(r.deliveries).toHaveLength(1);
		expect(engine.pending(id)).toBe(2);
	});

	it('repeated failures with no success in between disable the subscription after about a day', async () => {
		const r = await receiver([500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(12 * HOUR);
		expect(isActive(id)).toBe(true);
		await engine.advance(12 * HOUR);
		expect(isActive(id)).toBe(false);
		const disabledAt = logOf(id).find((e) => e.outcome === 'disabled')!.time - logOf(id)[0].time;
		expect(disabledAt).toBeGreaterThanOrEqual(20 * HOUR);
		expect(disabledAt).toBeLessThanOrEqual(DAY);
	});

	it('a high-volume endpoint (backlog of 1,000 events) is disabled within hours', async () => {
		const id = await subscribe(2, 'http://127.0.0.1:9/refused', { limit: 100 });
		const l = lead();
		for (let i = 0; i < 1000; i++) emitLead(sb.store, 'updated', l, i);
		await engine.advance(9 * HOUR);
		expect(isActive(id)).toBe(false);
	});

	it('a disabled subscription is pinged about every 6 hours; the first 2xx re-enables it and releases pending events at once', async () => {
		const r = await receiver([410, 503, 200, 200]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(isActive(id)).toBe(false);
		await engine.advance(6 * HOUR - SECOND);
		expect(r.pings).toHaveLength(0);
		await engine.advance(SECOND);
		expect(r.pings).toHaveLength(1);
		expect(r.pings[0].json).toEqual({ eventType: 'ping', webhookId: expect.any(Number) });
		expect(r.pings[0].text).toBe(`{"eventType":"ping","webhookId":${id}}`);
		expect(isActive(id)).toBe(false);
		await engine.advance(6 * HOUR);
		expect(r.pings).toHaveLength(2);
		expect(isActive(id)).toBe(true);
		// the pending event went out right after the revival, under its original Service-Webhook-Id
		expect(r.deliveries).toHaveLength(2);
		expect(r.deliveries[1].headers['service-webhook-id']).toBe(r.deliveries[0].headers['service-webhook-id']);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['disabled', 'ping-failed', 'revived', 'delivered']);
	});

	it('events expire 48 hours after creation, even while the subscription is disabled', async () => {
		const r = await receiver([410, 500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		await engine.advance(48 * HOUR);
		expect(logOf(id).some((e) => e.outcome === 'expired')).toBe(true);
		expect(engine.pending(id)).toBe(0);
		r.script = [200];
		await engine.advance(6 * HOUR);
		expect(isActive(id)).toBe(true);
		expect(r.deliveries).toHaveLength(1);
	});

	it('a deleted subscription gets nothing more', async () => {
		const r = await receiver([500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		await api().delete(`/v1.0/webhook/${id}`, { headers: { 'Content-Type': 'application/json' } });
		await engine.advance(HOUR);
		expect(r.deliveries).toHaveLength(1);
	});
});
