/**
 * Polls of the Lofty Polling Trigger never overlap (issue 36). n8n's in-process poll scheduler (every n8n line; the
 * only one before 2.36, packages/core active-workflows.ts: `registerCron(..., () => void executeTrigger())`) starts
 * a poll at each tick without waiting for the last one, and every poll of an activation reads and writes one
 * static-data object (`workflow.staticData`, saved when a poll emits). The harness's `shared` mode is that object.
 * A poll that starts while the last one of the same trigger runs reads nothing and changes nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_POLL_BUDGET_MS } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { STALE_AFTER_MS } from '../../nodes/LoftyPollingTrigger/pollTurn';
import { gate, tick } from '../harness/gates';
import { type PollHost, poll } from '../harness/poll';
import { MIN, PollDriver, addLeads, useDateOnlyClock } from '../harness/pollDriver';
import { createLeadAt, useSandbox } from '../harness/sandbox';
import { LONG_TEST_MS } from '../harness/budgets';

const sandbox = useSandbox();
const leadsOnly = { events: ['lead'] };
const ids = (items: IDataObject[] | null) => (items ?? []).map((i) => String(i.leadId));

/** A poll held before its first request until `open()`; `waiting` once it got there. */
function heldPoll(shared: IDataObject, host: Partial<PollHost> = {}) {
	const held = gate();
	const state = { waiting: false };
	let first = true;
	const running = poll(sandbox(), leadsOnly, undefined, 'trigger', {
		...host,
		shared,
		beforeRequest: async () => {
			if (!first) return;
			first = false;
			state.waiting = true;
			await held.promise;
		},
	});
	return { running, open: held.open, state };
}

async function until(done: () => boolean): Promise<void> {
	while (!done()) await tick();
}

describe('Lofty Polling Trigger, one poll of a trigger at a time (n8n\'s in-process scheduler, one static-data object)', () => {
	beforeEach(() => sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 }));

	it('a poll that starts while the last one reads returns nothing and sends nothing; the leads come once', async () => {
		const shared: IDataObject = {};
		expect((await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared })).items).toBeNull();
		const leads = [await createLeadAt(sandbox(), 'Ann', Date.now()), await createLeadAt(sandbox(), 'Ben', Date.now())];

		const first = heldPoll(shared);
		await until(() => first.state.waiting);
		const sent = sandbox().requests.length;
		const second = await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared });
		const sentBySecond = sandbox().requests.length - sent;
		first.open();
		const emitted = [...ids(second.items), ...ids((await first.running).items)];
		expect(emitted.sort()).toEqual([...leads].sort());
		expect(sentBySecond).toBe(0);

		// The turn is free again: the next poll reads (nothing new), a lead after it comes once.
		expect((await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared })).items).toBeNull();
		const later = await createLeadAt(sandbox(), 'Cy', Date.now());
		expect(ids((await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared })).items)).toEqual([later]);
	});

	it('another workflow\'s trigger is not held up, and a poll that failed gives its turn back', async () => {
		const shared: IDataObject = {};
		await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared });
		const first = heldPoll(shared);
		await until(() => first.state.waiting);
		const other = await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared: {}, workflowId: 'another' });
		expect(JSON.parse(other.stored).pollState.sources.lead).toBeDefined();
		first.open();
		await first.running;

		const lead = await createLeadAt(sandbox(), 'Dee', Date.now());
		const failing = poll(sandbox(), leadsOnly, undefined, 'trigger', { shared, beforeRequest: () => Promise.reject(new Error('connection reset')) });
		await expect(failing).rejects.toThrow();
		expect(ids((await poll(sandbox(), leadsOnly, undefined, 'trigger', { shared })).items)).toEqual([lead]);
	});

	describe('on jest\'s clock', () => {
		useDateOnlyClock();

		it('a poll stuck past its deadline loses its turn: the next poll reads, the stuck one keeps and emits nothing', async () => {
			const shared: IDataObject = {};
			const host = { budgetMs: 36_000 };
			await poll(sandbox(), leadsOnly, undefined, 'trigger', { ...host, shared });
			const leads = addLeads(sandbox(), 3, Date.now(), 1, 'Stuck');
			jest.setSystemTime(Date.now() + 1000);
			const stuck = heldPoll(shared, host);
			await until(() => stuck.state.waiting);
			jest.setSystemTime(Date.now() + 36_000 + STALE_AFTER_MS - 1000);
			expect((await poll(sandbox(), leadsOnly, undefined, 'trigger', { ...host, shared })).items).toBeNull();
			jest.setSystemTime(Date.now() + 2000);
			const next = await poll(sandbox(), leadsOnly, undefined, 'trigger', { ...host, shared });
			expect(ids(next.items).sort()).toEqual([...leads].sort());
			const kept = JSON.stringify(shared);
			stuck.open();
			expect((await stuck.running).items).toBeNull();
			expect(JSON.stringify(shared)).toBe(kept);
		});

		it('without a budget from n8n (before 2.38) a poll reads well within the shortest interval, a minute', async () => {
			expect(DEFAULT_POLL_BUDGET_MS).toBeLessThanOrEqual(40_000);
			sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: MIN });
			const driver = new PollDriver(sandbox, 2000, { budgetMs: undefined });
			await driver.poll();
			addLeads(sandbox(), 3000, Date.now() - 3000 * 10, 10, 'Backlog');
			await driver.poll();
			await driver.poll();
			for (const p of driver.polls) expect(p.ms).toBeLessThanOrEqual(DEFAULT_POLL_BUDGET_MS);
			expect(driver.polls[1].ms).toBeGreaterThan(DEFAULT_POLL_BUDGET_MS - 5000);
		}, LONG_TEST_MS);
	});
});
