/**
 * The Lofty Trigger's execute() (LoftyTrigger/runOnce.ts): the run key and own mark of an item, and what a request
 * to its own webhook asking which events ran looks like. The whole execute() against a trigger harness:
 * test/trigger/runOnce.test.ts.
 */
import { contentKeyOf } from '../../nodes/LoftyTrigger/parse';
import { RUNS_BODY_KEY, eventKeysOf, isRunsRequest } from '../../nodes/LoftyTrigger/runOnce';

const T = Date.UTC(2026, 0, 2, 3, 4, 5);

describe('eventKeysOf', () => {
	it('no list: no key (the item always passes)', () => {
		expect(eventKeysOf({ listId: '2', action: 'created', leadId: '5' })).toEqual({});
	});

	it('a caught-up item: its record, run and caught keys; one a catch-up cannot bring has none', () => {
		expect(eventKeysOf({ listId: 2, action: 'created', leadId: '5', caughtUp: true })).toEqual({ run: 'ran|2|created|5', own: 'caught|2|created|5' });
		expect(eventKeysOf({ listId: 2, action: 'updated', leadId: '5', caughtUp: true })).toEqual({});
	});

	it('a delivered timed event: run key of its record where a catch-up can bring it, else of its content; its own mark the content key', () => {
		const raw = { leadId: 5, updateTime: T };
		const { dedupeKey } = contentKeyOf(2, 'createdLead', raw);
		expect(eventKeysOf({ listId: 2, action: 'created', leadId: '5', eventKey: 'createdLead', raw })).toEqual({ run: 'ran|2|created|5', own: dedupeKey });
		const updated = contentKeyOf(2, 'updatedLead', raw).dedupeKey;
		expect(eventKeysOf({ listId: 2, action: 'updated', leadId: '5', eventKey: 'updatedLead', raw })).toEqual({ run: `ran|${updated}`, own: updated });
		expect(eventKeysOf({ listId: 2, action: 'updated', leadId: '5', eventKey: 'updatedLead', raw, caughtUp: false })).toEqual({ run: `ran|${updated}`, own: updated });
	});

	it('a delivered event without its own time: the record\'s run key only, else none', () => {
		expect(eventKeysOf({ listId: 2, action: 'created', leadId: '5', eventKey: 'createdLead', raw: { leadId: 5 } })).toEqual({ run: 'ran|2|created|5' });
		expect(eventKeysOf({ listId: 2, action: 'created', leadId: '5', raw: { leadId: 5, updateTime: T } })).toEqual({ run: 'ran|2|created|5' });
		expect(eventKeysOf({ listId: 4, action: 'alert', eventKey: 'alert', raw: { alertId: 7 } })).toEqual({});
	});
});

describe('isRunsRequest', () => {
	it('exactly one field, loftyTriggerRuns, holding a list of key texts', () => {
		expect(RUNS_BODY_KEY).toBe('loftyTriggerRuns');
		expect(isRunsRequest({ loftyTriggerRuns: { keys: ['ran|a', 'ran|b'] } })).toBe(true);
		expect(isRunsRequest({ loftyTriggerRuns: { keys: [] } })).toBe(true);
		for (const body of [
			undefined,
			null,
			'loftyTriggerRuns',
			[{ loftyTriggerRuns: { keys: [] } }],
			{},
			{ loftyTriggerRuns: { keys: ['a'] }, listId: 2 },
			{ other: { keys: ['a'] } },
			{ loftyTriggerRuns: null },
			{ loftyTriggerRuns: { keys: 'a' } },
			{ loftyTriggerRuns: { keys: ['a', 7] } },
		]) {
			expect(isRunsRequest(body)).toBe(false);
		}
	});
});
