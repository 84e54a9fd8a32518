/**
 * The Lofty Polling Trigger when n8n's clock is not Lofty's (a laptop or NAS without NTP) and when records carry
 * times in the future: every new lead, call, text and email is emitted once, none from before the activation.
 * Lofty's clock is the sandbox's (its answers state it in the Date header); n8n's is jest's, which the test moves.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication/state';
import { poll } from '../harness/poll';
import { createLeadAt, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const MIN = 60_000;
const HOUR = 60 * MIN;

type Source = 'lead' | 'call' | 'text' | 'email';
const KIND = { call: 'CALL', text: 'TEXT', email: 'EMAIL' } as const;

const ALL_BUT_DATE = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;
beforeEach(() => jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.UTC(2026, 0, 5, 9) }));
afterEach(() => jest.useRealTimers());

/** Lofty's clock `ahead` ms from n8n's; `later()` lets time pass for both (jest's clock, Date only). */
function loftyClock(ahead: number) {
	sandbox().store.now = () => Date.now() + ahead;
	return {
		now: () => sandbox().store.now(),
		later: (ms: number) => jest.setSystemTime(Date.now() + ms),
	};
}

/** A new record of the source at Lofty's time `at`, as Lofty writes it; its ID as the trigger emits it. */
async function record(source: Source, at: number): Promise<string> {
	if (source !== 'lead') {
		const entry = commState(sandbox().store).add({
			leadId: BigInt(SEED_IDS.bigLeadId),
			agentId: BigInt(SEED_IDS.demoUserId),
			kind: KIND[source],
			communicationType: 'MANUAL',
			direction: 'Outbound',
			time: at,
			visibleAt: 0,
		});
		return entry.id.toString();
	}
	return await createLeadAt(sandbox(), 'Clock', at);
}

const idOf = (item: IDataObject) => String(item.event === 'lead.created' ? item.leadId : item.timelineId);
const SOURCES: Source[] = ['lead', 'call', 'text', 'email'];

beforeEach(() => sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 }));

describe.each(SOURCES)('New %s with n8n\'s clock off Lofty\'s', (source) => {
	it.each([
		['30 minutes ahead', 30 * MIN],
		['30 minutes behind', -30 * MIN],
		['8 hours ahead', 8 * HOUR],
		['8 hours behind', -8 * HOUR],
	])('n8n %s: the records of the first minutes after activation are emitted once, none from before', async (_name, n8nAhead) => {
		const lofty = loftyClock(-n8nAhead);
		const before = await record(source, lofty.now() - 2 * MIN);
		const activation = await poll(sandbox(), { events: [source] });
		expect(activation.items).toBeNull();
		const first = await record(source, lofty.now() + 1000);
		lofty.later(5 * MIN);
		const second = await record(source, lofty.now() - 1000);
		lofty.later(MIN);
		const run = await poll(sandbox(), { events: [source] }, activation.stored);
		expect(run.items?.map(idOf)).toEqual([first, second]);
		expect(run.items?.map(idOf)).not.toContain(before);
		lofty.later(MIN);
		const third = await record(source, lofty.now() - 1000);
		const again = await poll(sandbox(), { events: [source] }, run.stored);
		expect(again.items?.map(idOf)).toEqual([third]);
	});

	it('a record dated 8 hours ahead (an import, a local time read as UTC) does not hide the records written after it', async () => {
		const lofty = loftyClock(0);
		const activation = await poll(sandbox(), { events: [source] });
		const future = await record(source, lofty.now() + 8 * HOUR);
		const now = await record(source, lofty.now() + 1000);
		lofty.later(MIN);
		const one = await poll(sandbox(), { events: [source] }, activation.stored);
		// Leads are listed newest first and the future one is read at once; calls, texts and emails are asked for up
		// to Lofty's now, so the future one comes when its time has come.
		expect(one.items?.map(idOf)).toEqual(source === 'lead' ? [now, future] : [now]);
		lofty.later(2 * HOUR);
		const later = await record(source, lofty.now() - 1000);
		const two = await poll(sandbox(), { events: [source] }, one.stored);
		expect(two.items?.map(idOf)).toEqual([later]);
		lofty.later(6 * HOUR);
		const three = await poll(sandbox(), { events: [source] }, two.stored);
		expect(three.items?.map(idOf) ?? []).toEqual(source === 'lead' ? [] : [future]);
		expect((await poll(sandbox(), { events: [source] }, three.stored)).items).toBeNull();
	});
});

describe('a cursor saved past Lofty\'s clock (by an earlier version, after a future-dated lead)', () => {
	it('is brought back to Lofty\'s now: the leads written since are emitted', async () => {
		const lofty = loftyClock(0);
		const activation = await poll(sandbox(), { events: ['lead'] });
		const stored = JSON.parse(activation.stored) as { pollState: { sources: { lead: { cursor: number } } } };
		stored.pollState.sources.lead.cursor = lofty.now() + 8 * HOUR;
		const lead = await record('lead', lofty.now() + 1000);
		lofty.later(MIN);
		const run = await poll(sandbox(), { events: ['lead'] }, JSON.stringify(stored));
		expect(run.items?.map(idOf)).toEqual([lead]);
	});
});
