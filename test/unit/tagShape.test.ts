/**
 * The lead tag shape (model/tagShape.ts) as a rule of its own: which refusals are about the tag list, and what the
 * other shape of a body is. The node runs of the same rule against the sandbox: test/node/leadTagRefusal.test.ts and
 * leadTagShape.test.ts.
 */
import type { BuiltRequest } from '../../nodes/Lofty/model/types';
import { TAG_BODY_FIELDS, TAG_SHAPE_READING, tagShapeRefused } from '../../nodes/Lofty/model/tagShape';

const request = (body?: unknown): BuiltRequest => ({ method: 'POST', path: '/v1.0/leads', qs: {}, body }) as BuiltRequest;
const refusal = (message: string, httpCode = 400, code?: string | number) => ({ httpCode, code, message });

describe('which refusals are about the tag list', () => {
	it('a 400, or a 2xx with a refusing code, only; never another 4xx, 1xx, 3xx or 20005', () => {
		const message = 'tags must be objects {tagName}';
		expect(tagShapeRefused(refusal(message))).toBe(true);
		expect(tagShapeRefused(refusal(message, 200, 'INVALID_PARAMETER'))).toBe(true);
		expect(tagShapeRefused(refusal(message, 299, 20012))).toBe(true);
		expect(tagShapeRefused(refusal(message, 200, 20005))).toBe(false);
		expect(tagShapeRefused(refusal(message, 199, 'INVALID_PARAMETER'))).toBe(false);
		expect(tagShapeRefused(refusal(message, 300, 'INVALID_PARAMETER'))).toBe(false);
		expect(tagShapeRefused(refusal(message, 401))).toBe(false);
		expect(tagShapeRefused(refusal(message, 422))).toBe(false);
	});

	it('the message names a tag field or the tag type as a whole word', () => {
		for (const word of ['tags', 'tagsAdd', 'tagsRemove', 'tagName', 'LeadTagVo']) expect(tagShapeRefused(refusal(`bad value in ${word}.`))).toBe(true);
		for (const word of ['tagsX', 'hashtags', 'stage', 'LeadTagVos', 'xtagName']) expect(tagShapeRefused(refusal(`bad value in ${word}.`))).toBe(false);
	});

	it("Jackson's lists of known properties do not count, however many; a tag field named outside them does", () => {
		const lists = 'Unrecognized field "x" (12 known properties: "tags", "stage") and "y" (1 known properties: "tagsAdd")';
		expect(tagShapeRefused(refusal(lists))).toBe(false);
		expect(tagShapeRefused(refusal(`${lists}; tags must be names`))).toBe(true);
	});
});

describe('the other shape of a body', () => {
	it('names become {tagName} and {tagName} becomes names, in every tag field; the rest is kept and the request not changed', () => {
		const body = { firstName: 'A', tags: ['VIP', 'Hot'], tagsAdd: [{ tagName: 'New' }], tagsRemove: ['Old'] };
		const sent = request(body);
		const other = TAG_SHAPE_READING.rewrite(sent, {});
		expect(other.body).toEqual({ firstName: 'A', tags: [{ tagName: 'VIP' }, { tagName: 'Hot' }], tagsAdd: ['New'], tagsRemove: [{ tagName: 'Old' }] });
		expect(other.path).toBe('/v1.0/leads');
		expect(sent.body).toEqual({ firstName: 'A', tags: ['VIP', 'Hot'], tagsAdd: [{ tagName: 'New' }], tagsRemove: ['Old'] });
		expect(TAG_BODY_FIELDS).toEqual(['tags', 'tagsAdd', 'tagsRemove']);
	});

	it('an entry that is neither a name nor {tagName: name} stays as it is', () => {
		expect(TAG_SHAPE_READING.rewrite(request({ tags: [null, { tagName: 7 }, { other: 'x' }] }), {}).body).toEqual({ tags: [null, { tagName: 7 }, { other: 'x' }] });
	});

	it('no tag list to reshape (none, empty, not a list, not a body object): the same request, and no refusal is about the shape', () => {
		for (const body of [undefined, {}, { tags: [] }, { tags: 'VIP' }, { firstName: 'A' }, [{ tags: ['VIP'] }]]) {
			const sent = request(body);
			expect(TAG_SHAPE_READING.rewrite(sent, {})).toBe(sent);
			expect(TAG_SHAPE_READING.detect(refusal('tags must be objects'), sent)).toBe(false);
		}
		expect(TAG_SHAPE_READING.detect(refusal('tags must be objects'), request({ tagsRemove: ['Old'] }))).toBe(true);
		expect(TAG_SHAPE_READING.detect(refusal('stage must be a name'), request({ tags: ['VIP'] }))).toBe(false);
	});

	it('is remembered for the account and switches back both ways', () => {
		expect(TAG_SHAPE_READING).toMatchObject({ name: 'tagObjects', remember: 'account', bothWays: true });
	});
});
