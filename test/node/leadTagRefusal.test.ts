/**
 * Readings recognise a refusal by what it names (model/readings.ts, model/tagShape.ts): a lead write goes out again
 * with tags in the other shape only after a 400 whose message names a tag field or the tag type as a whole word, in
 * Jackson's words or in plain ones; never after a 5xx or a refusal about another field; and the account learns a
 * shape only once Lofty answered it 2xx. Both readings (tagWrites) and both phrasings (leadTagRefusal).
 */
import { SEED_IDS } from '../../sandbox';
import { leadTagRefusal } from '../../sandbox/resources/lead';
import { forgetAccountReadings } from '../../nodes/Lofty/model/readings';
import { TAG_SHAPE_READING } from '../../nodes/Lofty/model/tagShape';
import { ROUTING_IDS } from '../../sandbox/resources/routing';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => forgetAccountReadings());

const LEADS = '/v1.0/leads';
const create = (firstName: string, tags = ['VIP']) => ({ resource: 'lead', operation: 'create', firstName, additionalFields: { tags } });
/** The tags of each POST /v1.0/leads, with Lofty's status. */
const creates = () =>
	sandbox()
		.requests.filter((r) => r.method === 'POST' && r.path === LEADS)
		.map((r) => [r.status, (JSON.parse(r.body) as { tags?: unknown[] }).tags?.map((t) => (typeof t === 'string' ? 'name' : 'object'))[0]]);
/** Whether the tag reading takes this refusal of a create with tags as about the tag shape. */
const tagShapeRefused = (failure: { httpCode: number; code?: string | number; message: string }) => TAG_SHAPE_READING.detect(failure, { method: 'POST', path: LEADS, qs: {}, body: { tags: ['VIP'] } });
const tagsOf = (leadId: string) => sandbox().store.leads.get(leadId)?.tags.map((t) => t.tagName);

describe.each(['parseError', 'plain'] as const)('a refusal of the tag shape in %s words', (phrasing) => {
	beforeEach(() => (leadTagRefusal(sandbox().store).phrasing = phrasing));

	it('objects reading: names refused, sent once more as {tagName}, the account keeps objects', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		const [item] = await run(sandbox(), create('Plainshape'));
		expect(tagsOf(item.json.leadId as string)).toEqual(['VIP']);
		await run(sandbox(), create('Plainshape Two'));
		expect(creates()).toEqual([
			[400, 'name'],
			[200, 'object'],
			[200, 'object'],
		]);
	});

	it('strings reading after the account took objects: objects refused, names again (Update and Create or Update too)', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		await run(sandbox(), create('Shapeshift'));
		sandbox().readings.set({ tagWrites: 'strings' });
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), updateFields: { tagsAdd: ['Investor'] } });
		expect(tagsOf(SEED_IDS.bigLeadId)).toContain('Investor');
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Shapeshift', email: 'shift@example.com', additionalFields: { tags: ['Web'] } }, { typeVersion: 1.1 });
		expect(item.json.action).toBe('created');
		expect(tagsOf(item.json.leadId as string)).toEqual(['Web']);
		expect(creates().slice(2)).toEqual([[200, 'name']]);
	});
});

describe('what is not a tag refusal', () => {
	it('a parse error about `stage` ("stage" holds "tag"): shown as it is, sent once, nothing learned', async () => {
		const message = 'JSON parse error: Cannot deserialize value of type `java.lang.Integer` from String "Hot" (through reference chain: LeadRequest["stage"])';
		sandbox().faults.inject({ kind: '500', status: 400, code: 20012, message, match: { method: 'POST', path: LEADS } });
		const error = await runError(sandbox(), create('Stagey'));
		expect(error.message).toContain('LeadRequest["stage"]');
		await run(sandbox(), create('Stagey Two'));
		expect(creates()).toEqual([
			[400, 'name'],
			[200, 'name'],
		]);
	});

	it('a 500 that names tags may have been applied: never sent again', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		sandbox().faults.inject({ kind: '500', code: 20012, message: 'JSON parse error: Cannot construct instance of `LeadTagVo` (through reference chain: LeadRequest["tags"])', match: { method: 'POST', path: LEADS } });
		const error = await runError(sandbox(), create('Fivehundred'));
		expect((error as Error & { context?: Record<string, unknown> }).context?.writeUncertain).toBe(true);
		expect(creates()).toEqual([[500, 'name']]);
	});

	it('a 400 naming tags whose other shape is refused too: the first refusal is shown, and the account learns nothing', async () => {
		const message = 'INVALID_PARAMETER: tags must have at most 1 entry';
		sandbox().faults.inject({ kind: '500', status: 400, code: 20012, message, match: { method: 'POST', path: LEADS } });
		const error = await runError(sandbox(), create('Toomany', ['VIP', 'Cold']));
		expect(error.message).toContain(message);
		expect(error.description).toMatch(/refused too \(HTTP 400: JSON parse error/);
		await run(sandbox(), create('Toomany Two'));
		expect(creates()).toEqual([
			[400, 'name'],
			[400, 'object'],
			[200, 'name'],
		]);
	});

	it('the words: whole tag fields or the tag type, 400 only, not Jackson\'s list of known properties', () => {
		expect(tagShapeRefused({ httpCode: 400, message: 'INVALID_PARAMETER: tags must be objects {tagName}' })).toBe(true);
		expect(tagShapeRefused({ httpCode: 400, message: 'tagsRemove: expected a list of names' })).toBe(true);
		expect(tagShapeRefused({ httpCode: 500, message: 'INVALID_PARAMETER: tags must be objects {tagName}' })).toBe(false);
		expect(tagShapeRefused({ httpCode: 400, message: 'JSON parse error (through reference chain: LeadRequest["stage"])' })).toBe(false);
		expect(tagShapeRefused({ httpCode: 400, message: 'hashtags are not allowed' })).toBe(false);
		const unknown = 'Unrecognized field "stagee" (class LeadRequest), not marked as ignorable (3 known properties: "firstName", "stage", "tags"])';
		expect(tagShapeRefused({ httpCode: 400, message: unknown })).toBe(false);
	});
});

describe('a refusal of the tag shape answered HTTP 200 with an error code (transport/writeOutcome.ts)', () => {
	it('a validation code naming tags is a refusal: sent once more as {tagName}, one lead, the account learns objects', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		sandbox().faults.inject({ kind: '500', status: 200, code: 'INVALID_PARAMETER', message: 'tags must be objects {tagName}', match: { method: 'POST', path: LEADS } });
		const [item] = await run(sandbox(), create('Codeshape'));
		expect(tagsOf(item.json.leadId as string)).toEqual(['VIP']);
		expect(creates()).toEqual([
			[200, 'name'],
			[200, 'object'],
		]);
		expect([...sandbox().store.leads.values()].filter((l) => l.firstName === 'Codeshape')).toHaveLength(1);
	});

	it("Lofty's internal-error code (20005) naming tags may have been applied: never sent again", async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		sandbox().faults.inject({ kind: '500', status: 200, code: 20005, message: 'tags could not be saved', match: { method: 'POST', path: LEADS } });
		const error = await runError(sandbox(), create('Internalshape'));
		expect((error as Error & { context?: Record<string, unknown> }).context?.writeUncertain).toBe(true);
		expect(creates()).toHaveLength(1);
	});

	it('the words rule, by code', () => {
		expect(tagShapeRefused({ httpCode: 200, code: 'INVALID_PARAMETER', message: 'tags must be objects {tagName}' })).toBe(true);
		expect(tagShapeRefused({ httpCode: 200, code: 20005, message: 'tags must be objects {tagName}' })).toBe(false);
		expect(tagShapeRefused({ httpCode: 200, code: 'INVALID_PARAMETER', message: 'stage must be a name' })).toBe(false);
	});
});

describe('the same rule for Routing > Update Rule (memberWeights)', () => {
	it('a 500 naming memberWeights is not sent again as one object', async () => {
		sandbox().faults.inject({ kind: '500', message: 'JSON parse error: Cannot deserialize value of type `MemberWeight` from Array value (token `JsonToken.START_ARRAY`)', match: { method: 'PUT' } });
		const params = { resource: 'routing', operation: 'updateRule', type: '1', ruleId: ROUTING_IDS.zillowRuleId, updateFields: { memberWeights: { values: [{ memberId: SEED_IDS.otherAgentUserId, weight: 3 }] } } };
		const error = await runError(sandbox(), params);
		expect((error as Error & { context?: Record<string, unknown> }).context?.writeUncertain).toBe(true);
		expect(sandbox().requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
	});
});
