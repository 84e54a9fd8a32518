/**
 * The trigger's delivery parser fed malformed deliveries: wrong types, missing or bad listId, event
 * lists holding non-objects, bad IDs and dates, very long strings, HTML, hostile keys, deep nesting.
 * Asserts: never an exception, never a refusal (an authenticated delivery is never discarded for its
 * shape: what cannot be read travels as `raw`), and the events of good deliveries parsed alongside are unaffected.
 */
import { claim } from '../../nodes/LoftyTrigger/dedupe';
import { parsePayload } from '../../nodes/LoftyTrigger/parse';

const MAX = '9223372036854775807';
const LONG = 'x'.repeat(100_000);
const HTML = '<script>alert(1)</script>';

const good = { teamId: 7, listId: 1, createdLead: [{ leadId: 42, updateTime: 1_760_000_000_000 }] };

const bodies: Array<[string, unknown]> = [
	['null', null],
	['undefined', undefined],
	['number', 42],
	['string', 'hello'],
	['HTML string', HTML],
	['array', [good]],
	['empty object', {}],
	['no listId', { teamId: 1, createdLead: [{ leadId: 1 }] }],
	['listId 0', { ...good, listId: 0 }],
	['listId -1', { ...good, listId: -1 }],
	['listId 2^63-1', { ...good, listId: MAX }],
	['listId text', { ...good, listId: 'abc' }],
	['listId decimal', { ...good, listId: 1.5 }],
	['listId object', { ...good, listId: { a: 1 } }],
	['events not objects', { listId: 1, createdLead: [1, 'x', null] }],
	['events mixed', { listId: 1, createdLead: [{ leadId: 1 }, null] }],
	['event list empty', { listId: 1, createdLead: [] }],
	['ids of every type', { listId: 1, updatedLead: [{ leadId: { a: 1 } }, { leadId: [1] }, { leadId: true }, { leadId: MAX }, { leadId: '0' }, { leadId: -1 }, { leadId: NaN }] }],
	['bad dates', { listId: 1, updatedLead: [{ leadId: 1, updateTime: 'not a date' }, { leadId: 2, updateTime: {} }, { leadId: 3, updateTime: -1 }, { leadId: 4, updateTime: '2026-13-45' }] }],
	['very long strings', { listId: 1, teamId: LONG, createdLead: [{ leadId: LONG, note: LONG }] }],
	['HTML everywhere', { listId: 1, teamId: HTML, [HTML]: [{ leadId: HTML }], createdLead: [{ leadId: 1, name: HTML }] }],
	['hostile keys', JSON.parse('{"listId": 1, "__proto__": {"polluted": true}, "constructor": [{"leadId": 1}], "createdLead": [{"__proto__": {"x": 1}, "leadId": 2}]}')],
	['deep nesting', { listId: 1, createdLead: [{ leadId: 1, deep: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) }] }],
	['ping of wrong type', { eventType: 'ping', webhookId: { a: 1 } }],
	['eventType object', { eventType: { a: 1 }, listId: 1 }],
	['note as scalar', { listId: 3, updatedNote: 'x' }],
	['change info malformed', { listId: 2, updatedLeadstage: [{ leadId: 1, changeInfo: 'x' }, { leadId: 2, changeInfo: [1] }] }],
];

describe('trigger: malformed deliveries', () => {
	it.each(bodies)('%s: no exception, a clear result', (_name, body) => {
		let result: ReturnType<typeof parsePayload> | undefined;
		expect(() => (result = parsePayload(body, 'delivery-1'))).not.toThrow();
		expect(['ping', 'events']).toContain(result!.kind);
		if (result!.kind === 'events') {
			for (const event of result!.events) {
				expect(typeof event.dedupeKey).toBe('string');
				expect(() => JSON.stringify(event.json)).not.toThrow();
				expect('raw' in event.json).toBe(true);
			}
		}
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('out-of-range dates: no exception, and the time reads as unknown', () => {
		const body = { listId: 1, updatedLead: [{ leadId: 1, updateTime: 1e20 }, { leadId: 2, updateTime: '99999999999999999999' }] };
		expect(() => parsePayload(body, 'delivery-1')).not.toThrow();
		const parsed = parsePayload(body, 'delivery-1');
		expect(parsed.kind === 'events' ? parsed.events.map((e) => e.json.updateTimeIso) : parsed).toEqual([null, null]);
	});

	it('out-of-range dates that stay within Date range: no exception', () => {
		const body = { listId: 1, updatedLead: [{ leadId: 3, updateTime: Infinity }, { leadId: 4, updateTime: 8.64e15 }] };
		expect(() => parsePayload(body, 'delivery-1')).not.toThrow();
	});

	it('the good delivery parsed between malformed ones is unaffected', () => {
		const alone = parsePayload(good, 'g');
		for (const [, body] of bodies) {
			try {
				parsePayload(body, 'bad');
			} catch {
				// counted by the test above
			}
		}
		expect(parsePayload(good, 'g')).toEqual(alone);
		expect(alone).toMatchObject({ kind: 'events', events: [{ json: { event: expect.any(String), leadId: '42' } }] });
	});

	it('dedupe survives malformed keys and ids and keeps working', () => {
		const staticData = {};
		const now = 1_760_000_000_000;
		const events = ['', LONG, HTML, '__proto__'].map((key) => ({ key, timed: true }));
		const first = claim('fuzz', staticData, '__proto__', events, now);
		expect(first).toMatchObject({ kind: 'new', fresh: [0, 1, 2, 3] });
		if (first.kind === 'new') {
			first.commit();
			first.settle(true);
		}
		expect(claim('fuzz', staticData, LONG, [{ key: HTML, timed: true }, { key: 'fresh', timed: true }], now)).toMatchObject({ kind: 'new', fresh: [1] });
		expect(claim('fuzz', staticData, '__proto__', [], now)).toEqual({ kind: 'seen' });
	});
});
