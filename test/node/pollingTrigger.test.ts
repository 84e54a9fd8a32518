/**
 * The Lofty Polling Trigger against the sandbox: the first activation starts from now, every new record is emitted
 * exactly once (also across restarts, for records Lofty shows late or that share a timestamp, and over several
 * pages), a failed poll leaves the state as it was, and items have the webhook events' shape.
 */

import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication/state';
import { leadPersistence } from '../../sandbox/resources/lead';
import { poll } from '../harness/poll';
import { createLeadAt, useSandbox } from '../harness/sandbox';
import { TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const MIN = 60_000;

/** Creates a lead over HTTP with the sandbox clock at `at` (Lofty's create time). */
async function newLead(firstName: string, at = Date.now()): Promise<string> {
	return await createLeadAt(sandbox(), firstName, at);
}

/** A communication as Lofty records it (a call made, a text or email sent), on the demo lead, by the demo user. */
function newCommunication(kind: 'CALL' | 'TEXT' | 'EMAIL', communicationType: 'MANUAL' | 'LOGGED' | 'AUTO', time = Date.now(), visibleAt = 0): string {
	const entry = commState(sandbox().store).add({
		leadId: BigInt(SEED_IDS.bigLeadId),
		agentId: BigInt(SEED_IDS.demoUserId),
		kind,
		communicationType,
		direction: 'Outbound',
		time,
		visibleAt,
	});
	return entry.id.toString();
}

const leadsOnly = { events: ['lead'] };

describe('Lofty Polling Trigger', () => {
	// Many reads and writes per test: no rate limit in the way.
	beforeEach(() => sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 }));

	it('first activation starts from now: nothing from before; then each new lead once, also after a restart', async () => {
		await newLead('Before', Date.now() - 60_000);
		const first = await poll(sandbox(), leadsOnly);
		expect(first.items).toBeNull();

		const a = await newLead('Ann');
		const b = await newLead('Ben');
		const second = await poll(sandbox(), leadsOnly, first.stored);
		expect(second.items?.map((i) => i.leadId)).toEqual([a, b]);
		expect(second.items?.[0]).toMatchObject({
			event: 'lead.created',
			listId: 2,
			teamId: SEED_IDS.teamId,
			action: 'created',
			leadId: a,
			eventKey: 'createdLead',
			deliveryId: null,
			raw: { leadId: a, firstName: 'Ann' },
		});
		expect(second.items?.[0].updateTimeIso).toBe(new Date(second.items?.[0].updateTime as number).toISOString());

		// n8n restarted: a new poll on the stored data emits nothing again.
		expect((await poll(sandbox(), leadsOnly, second.stored)).items).toBeNull();
		expect((await poll(sandbox(), leadsOnly, second.stored)).items).toBeNull();
	});

	it('a lead Lofty shows only a while after its creation (created while a poll ran) is emitted by a later poll', async () => {
		const start = await poll(sandbox(), leadsOnly);
		leadPersistence(sandbox().store).readDelayMs = 30_000;
		const late = await newLead('Late');
		leadPersistence(sandbox().store).readDelayMs = 0;
		const early = await newLead('Early', Date.now() + 1000);
		const during = await poll(sandbox(), leadsOnly, start.stored);
		expect(during.items?.map((i) => i.leadId)).toEqual([early]);
		// Lofty shows it now; its time is before the newest one seen, but inside Look Back.
		leadPersistence(sandbox().store).readableAt.clear();
		const after = await poll(sandbox(), leadsOnly, during.stored);
		expect(after.items?.map((i) => i.leadId)).toEqual([late]);
		expect((await poll(sandbox(), leadsOnly, after.stored)).items).toBeNull();
	});

	it('several leads with the same create time, written before and after a poll: each once', async () => {
		const start = await poll(sandbox(), leadsOnly);
		const t = Date.now() + 5000;
		const a = await newLead('Same A', t);
		const b = await newLead('Same B', t);
		const one = await poll(sandbox(), leadsOnly, start.stored);
		expect(one.items?.map((i) => i.leadId).sort()).toEqual([a, b].sort());
		const c = await newLead('Same C', t);
		const two = await poll(sandbox(), leadsOnly, one.stored);
		expect(two.items?.map((i) => i.leadId)).toEqual([c]);
	});

	it.each(READING_VALUES.leadPaging)('more new leads than one page (150): every one once, oldest first (leadPaging %s)', async (reading) => {
		sandbox().readings.set({ leadPaging: reading });
		const start = await poll(sandbox(), leadsOnly);
		const base = Date.now();
		const ids: string[] = [];
		for (let i = 0; i < 150; i++) ids.push(await newLead(`Bulk ${i}`, base + i));
		const run = await poll(sandbox(), leadsOnly, start.stored);
		expect(run.items?.map((i) => i.leadId)).toEqual(ids);
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/leads' && r.method === 'GET').length).toBeGreaterThanOrEqual(3);
	});

	it('Start From: the first poll emits the records since that date', async () => {
		const now = Date.now();
		await newLead('Two Hours Ago', now - 120 * MIN);
		const recent = await newLead('One Hour Ago', now - 60 * MIN);
		const run = await poll(sandbox(), { ...leadsOnly, options: { startFrom: new Date(now - 90 * MIN).toISOString() } });
		expect(run.items?.map((i) => i.leadId)).toEqual([recent]);
	});

	it('calls, texts and emails: made, sent or logged ones once, shaped like the webhook events; automatic ones only when asked', async () => {
		const all = { events: ['call', 'text', 'email'] };
		const start = await poll(sandbox(), all);
		const t = Date.now();
		const call = newCommunication('CALL', 'MANUAL', t - 4);
		const text = newCommunication('TEXT', 'MANUAL', t - 3);
		newCommunication('EMAIL', 'AUTO', t - 2);
		const logged = newCommunication('CALL', 'LOGGED', t - 1);
		const run = await poll(sandbox(), all, start.stored);
		expect(run.items?.map((i) => [i.event, i.timelineId])).toEqual([
			['call.created', call],
			['text.created', text],
			['call.created', logged],
		]);
		expect(run.items?.[0]).toMatchObject({
			listId: 6,
			teamId: SEED_IDS.teamId,
			action: 'created',
			leadId: SEED_IDS.bigLeadId,
			agentId: SEED_IDS.demoUserId,
			communicationType: 'MANUAL',
			eventKey: 'createdCall',
			deliveryId: null,
		});
		expect((await poll(sandbox(), all, run.stored)).items).toBeNull();

		const withAuto = await poll(sandbox(), { events: ['email'], options: { includeAutomatic: true } }, undefined);
		const auto = newCommunication('EMAIL', 'AUTO', Date.now() - 1);
		expect((await poll(sandbox(), { events: ['email'], options: { includeAutomatic: true } }, withAuto.stored)).items?.map((i) => i.timelineId)).toEqual([auto]);
	});

	it('a failed poll remembers nothing: the next poll emits what the failed one would have', async () => {
		const both = { events: ['lead', 'call'] };
		const start = await poll(sandbox(), both);
		const lead = await newLead('Through A Failure');
		const call = newCommunication('CALL', 'MANUAL');
		// The lead list answers, the communication search fails even after the read retries.
		sandbox().faults.inject({ kind: '500', times: 4, match: { path: '/v2.0/communication/agent' } });
		await expect(poll(sandbox(), { ...both, requestOptions: {} }, start.stored)).rejects.toThrow(/HTTP 500/);
		const next = await poll(sandbox(), both, start.stored);
		expect(next.items?.map((i) => (i.event === 'lead.created' ? i.leadId : i.timelineId))).toEqual([lead, call]);
	}, TEST_TIMEOUT_MS);

	it('the editor\'s test fetch shows the newest record of each kind and remembers nothing', async () => {
		const lead = await newLead('Newest');
		const run = await poll(sandbox(), leadsOnly, undefined, 'manual');
		expect(run.items?.map((i) => i.leadId)).toEqual([lead]);
		expect(run.stored).toBe('{}');
	});

	it('refuses no event and a bad Look Back, before asking Lofty', async () => {
		await expect(poll(sandbox(), { events: [] })).rejects.toThrow('Choose at least one event under "Trigger On"');
		await expect(poll(sandbox(), { ...leadsOnly, options: { lookBackMinutes: 0 } })).rejects.toThrow('Look Back (Minutes) must be from 1 to 1440, got 0');
		expect(sandbox().requests).toHaveLength(0);
	});
});
