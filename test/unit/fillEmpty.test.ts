/**
 * "When the Lead Exists: Only Fill Empty Fields" (resources/lead/fillEmpty.ts) as a rule of its own: what counts as
 * empty, what of an update's body is kept, and what the process knows of a lead after writing it. The node runs of
 * the same rule against the sandbox: test/node/leadUpsertExisting.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { afterWrite, isEmpty, onlyEmptyFields, withCurrentChoices } from '../../nodes/Lofty/resources/lead/fillEmpty';

/** An exact integer, as the node sends IDs (n8n's IDataObject has no bigint). */
const big = (value: bigint) => value as unknown as number;

describe('isEmpty', () => {
	it('absent, null, blank, -1, "[]", NaN, -1n, an empty list, an object of empty parts', () => {
		for (const value of [undefined, null, '', '  ', '-1', ' -1 ', '[]', -1, Number.NaN, -1n, [], {}, { a: null, b: '' }]) expect(isEmpty(value)).toBe(true);
	});
	it('text, other numbers, booleans, a list with anything, an object with one part set', () => {
		for (const value of ['x', '0', '-2', 0, 5, 0n, 2n, false, true, [null], ['a'], { a: null, b: 'x' }]) expect(isEmpty(value)).toBe(false);
	});
});

describe('onlyEmptyFields', () => {
	it('fills what the lead lacks, keeps what it has (listing a different value, not the same one)', () => {
		const lead = { firstName: 'Tess', lastName: '', source: 'Open House', score: -1, birthday: null, budget: 300000 };
		const body = { firstName: 'Theresa', lastName: 'Ray', source: 'Open House', score: 7, birthday: '1990-01-01', budget: big(300000n), stage: 'New' };
		expect(onlyEmptyFields(body, lead)).toEqual({ body: { lastName: 'Ray', score: 7, birthday: '1990-01-01', stage: 'New' }, kept: ['firstName'] });
	});

	it('emails, phones and tags are sent as built; a restriction turned on always, turned off like any value', () => {
		const lead = { emails: ['a@x.com'], phones: ['1'], tags: ['VIP'], cannotText: false, cannotCall: true, cannotEmail: false, unsubscription: false };
		const body = { emails: ['b@x.com'], phones: ['2'], tags: ['Hot'], tagsAdd: ['A'], tagsRemove: ['B'], clearAllTags: false, cannotText: true, cannotCall: false, cannotEmail: true, unsubscription: true };
		expect(onlyEmptyFields(body, lead)).toEqual({
			body: { emails: ['b@x.com'], phones: ['2'], tags: ['Hot'], tagsAdd: ['A'], tagsRemove: ['B'], clearAllTags: false, cannotText: true, cannotEmail: true, unsubscription: true },
			kept: ['cannotCall'],
		});
	});

	it('objects key by key, under the name the lead is read by (inquiry as leadInquiry); nothing left of one: not sent', () => {
		const lead = { leadInquiry: { priceMin: 100, priceMax: -1, note: 'x' }, other: { a: 1 } };
		const body = { inquiry: { priceMin: 200, priceMax: 500, note: 'x' }, other: { a: 2 } };
		expect(onlyEmptyFields(body, lead)).toEqual({ body: { inquiry: { priceMax: 500 } }, kept: ['inquiry.priceMin', 'other.a'] });
		expect(onlyEmptyFields({ inquiry: { note: 'x' } }, lead)).toEqual({ body: {}, kept: [] });
	});

	it('lists and objects are the same by their parts; numbers and IDs by their digits', () => {
		const lead = { list: [1, { a: '2' }], id: '12345678901234567890', flag: true, obj: { a: 1 }, short: [1, 2] };
		const body = { list: [1, { a: 2 }], id: big(12345678901234567890n), flag: 'true', obj: { a: 1 }, short: [1] };
		expect(onlyEmptyFields(body, lead)).toEqual({ body: {}, kept: ['short'] });
		expect(onlyEmptyFields({ list: [1, { a: 3 }] }, lead).kept).toEqual(['list']);
		expect(onlyEmptyFields({ list: [1, 2] }, { list: [1, { a: '2' }] }).kept).toEqual(['list']);
		expect(onlyEmptyFields({ obj: 'a' }, { obj: { a: 1 } }).kept).toEqual(['obj']);
		expect(onlyEmptyFields({ x: { a: 1 } }, { x: 'text' }).kept).toEqual(['x']);
		expect(onlyEmptyFields({ x: null }, { x: 'text' }).kept).toEqual(['x']);
		expect(onlyEmptyFields({ x: [1] }, { x: { 0: 1 } }).kept).toEqual(['x']);
	});

	describe('a property', () => {
		const home = { id: '77', streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '78701', beds: 3, baths: -1 };
		it('by its ID: fills what the property lacks, sends its ID (exact) and its address as Lofty has it', () => {
			const { body, kept } = onlyEmptyFields({ property: { id: '77', streetAddress: '1 ELM ST', beds: 4, baths: 2 } }, { leadPropertyList: [{ id: '5' }, home] });
			expect(body).toEqual({ property: { baths: 2, id: 77n, streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '78701' } });
			expect(kept).toEqual(['property.beds']);
		});
		it('without an ID (or 0): the property at the same address, whatever the case and spacing', () => {
			const given = { streetAddress: ' 1 elm st ', city: 'AUSTIN', state: 'tx', zipCode: '78701', baths: 2 };
			expect(onlyEmptyFields({ property: given }, { leadPropertyList: [home] }).body.property).toEqual({ baths: 2, id: 77n, streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '78701' });
			expect(onlyEmptyFields({ property: { ...given, id: 0 } }, { leadPropertyList: [home] }).body.property).toEqual(expect.objectContaining({ id: 77n }));
			expect(onlyEmptyFields({ property: { ...given, id: null } }, { leadPropertyList: [home] }).body.property).toEqual(expect.objectContaining({ id: 77n }));
		});
		it('a property the lead does not have is sent as given; one with nothing to fill is not sent', () => {
			const other = { streetAddress: '2 Oak St', city: 'Austin', state: 'TX', zipCode: '78701', beds: 2 };
			expect(onlyEmptyFields({ property: other }, { leadPropertyList: [home] }).body.property).toBe(other);
			expect(onlyEmptyFields({ property: { id: '9', beds: 1 } }, { leadPropertyList: [home] }).body.property).toEqual({ id: '9', beds: 1 });
			expect(onlyEmptyFields({ property: other }, { leadPropertyList: 'none' }).body.property).toBe(other);
			expect(onlyEmptyFields({ property: { id: '77', beds: 3 } }, { leadPropertyList: [null, home] })).toEqual({ body: {}, kept: [] });
		});
		it("a property without a numeric ID keeps the given ID; the address parts Lofty lacks come from the item", () => {
			const lofty = { id: 'p-1', streetAddress: '3 Pine St', city: '', state: 'TX', zipCode: '78701' };
			expect(onlyEmptyFields({ property: { id: 'p-1', city: 'Austin', beds: 2 } }, { leadPropertyList: [lofty] }).body.property).toEqual({
				beds: 2,
				id: 'p-1',
				streetAddress: '3 Pine St',
				city: 'Austin',
				state: 'TX',
				zipCode: '78701',
			});
			const noId = { streetAddress: '3 Pine St', city: 'Austin', state: 'TX', zipCode: '78701' };
			expect(onlyEmptyFields({ property: { ...noId, beds: 2 } }, { leadPropertyList: [noId] }).body.property).toEqual({ beds: 2, ...noId });
		});
	});

	describe('custom fields by name', () => {
		const lead = {
			customAttributes: [
				{ attributeName: 'Budget', value: '500' },
				{ attributeName: 'Empty', value: '' },
				{ attributeName: 'Areas', value: '["North","South"]' },
				{ attributeName: 'Pets', value: ['cat'] },
				'junk',
			],
		};
		it('an empty or unknown one is filled; a set one is kept (listed when different); multi-choice ones get the items they lack', () => {
			const list = [
				{ attributeName: 'Budget', value: '600' },
				{ attributeName: 'Budget', value: '500' },
				{ attributeName: 'Empty', value: 'x' },
				{ attributeName: 'New', value: 'y' },
				{ attributeName: 'Areas', value: '["south","East"]' },
				{ attributeName: 'Pets', value: ['CAT'] },
				'junk',
			];
			expect(onlyEmptyFields({ customAttributeList: list }, lead)).toEqual({
				body: {
					customAttributeList: [
						{ attributeName: 'Empty', value: 'x' },
						{ attributeName: 'New', value: 'y' },
						{ attributeName: 'Areas', value: '["North","South","East"]' },
					],
				},
				kept: ['customFields.Budget'],
			});
		});
		it('replacing multi-choice items (addChoices off): kept and listed like any value; the same items are not listed', () => {
			const list = [
				{ attributeName: 'Areas', value: '["East"]' },
				{ attributeName: 'Pets', value: '["cat"]' },
			];
			expect(onlyEmptyFields({ customAttributeList: list }, lead, false)).toEqual({ body: {}, kept: ['customFields.Areas'] });
		});
		it('a value that only looks like a list is compared as text; none on the lead: all sent', () => {
			expect(onlyEmptyFields({ customAttributeList: [{ attributeName: 'Areas', value: '[North' }] }, lead).kept).toEqual(['customFields.Areas']);
			expect(onlyEmptyFields({ customAttributeList: [{ attributeName: 'Areas', value: '[{"a":1}]' }] }, lead).kept).toEqual(['customFields.Areas']);
			expect(onlyEmptyFields({ customAttributeList: [{ attributeName: 'A', value: '1' }] }, { customAttributes: 'none' }).body).toEqual({ customAttributeList: [{ attributeName: 'A', value: '1' }] });
			expect(onlyEmptyFields({ customAttributeList: 'not a list' }, lead)).toEqual({ body: {}, kept: ['customAttributeList'] });
		});
	});
});

describe('withCurrentChoices', () => {
	const lead = { customAttributes: [{ attributeName: 'Areas', value: '["North"]' }, { attributeName: 'Budget', value: '5' }, 'junk'] };
	it("a multi-choice field keeps the lead's items before the given ones it lacks; others as given", () => {
		const body = { firstName: 'A', customAttributeList: [{ attributeName: 'Areas', value: '["north","West"]' }, { attributeName: 'Budget', value: '6' }, { attributeName: 'New', value: '["x"]' }, 'junk'] };
		expect(withCurrentChoices(body, lead)).toEqual({
			firstName: 'A',
			customAttributeList: [{ attributeName: 'Areas', value: '["North","West"]' }, { attributeName: 'Budget', value: '6' }, { attributeName: 'New', value: '["x"]' }],
		});
	});
	it('no custom fields, or a lead without any: the body unchanged', () => {
		const body = { firstName: 'A' };
		expect(withCurrentChoices(body, lead)).toBe(body);
		expect(withCurrentChoices({ customAttributeList: [{ attributeName: 'Areas', value: '["x"]' }] }, { customAttributes: 'none' })).toEqual({ customAttributeList: [{ attributeName: 'Areas', value: '["x"]' }] });
	});
});

describe('afterWrite', () => {
	it('values replace; emails, phones and tags are not kept; the inquiry merges into leadInquiry', () => {
		const lead: IDataObject = { firstName: 'A', leadInquiry: { priceMin: 1, note: 'x' }, emails: ['a@x.com'] };
		expect(afterWrite(lead, { firstName: 'B', emails: ['b@x.com'], tags: ['T'], inquiry: { priceMin: 2 } })).toEqual({ firstName: 'B', leadInquiry: { priceMin: 2, note: 'x' }, emails: ['a@x.com'] });
		expect(afterWrite({ leadInquiry: 'bad' }, { inquiry: { priceMin: 2 } })).toEqual({ leadInquiry: { priceMin: 2 } });
		expect(afterWrite({}, { inquiry: 'text' })).toEqual({ inquiry: 'text' });
		expect(lead).toEqual({ firstName: 'A', leadInquiry: { priceMin: 1, note: 'x' }, emails: ['a@x.com'] });
	});
	it('custom fields replace those of the same name, after the others', () => {
		const lead = { customAttributes: [{ attributeName: 'A', value: '1' }, { attributeName: 'B', value: '2' }] };
		expect(afterWrite(lead, { customAttributeList: [{ attributeName: 'A', value: '3' }, 'junk'] })).toEqual({
			customAttributes: [{ attributeName: 'B', value: '2' }, { attributeName: 'A', value: '3' }, 'junk'],
		});
		expect(afterWrite({ customAttributes: 'none' }, { customAttributeList: [{ attributeName: 'A', value: '3' }] })).toEqual({ customAttributes: [{ attributeName: 'A', value: '3' }] });
		expect(afterWrite({}, { customAttributeList: 'x' })).toEqual({ customAttributeList: 'x' });
	});
	it('a property merges into the one it lands on, else joins the list', () => {
		const home = { id: '7', streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '1', beds: 3 };
		const other = { id: '8' };
		expect(afterWrite({ leadPropertyList: [other, home] }, { property: { id: '7', beds: 4 } })).toEqual({ leadPropertyList: [other, { ...home, beds: 4 }] });
		expect(afterWrite({ leadPropertyList: [home] }, { property: { id: '9' } })).toEqual({ leadPropertyList: [home, { id: '9' }] });
		expect(afterWrite({}, { property: { id: '9' } })).toEqual({ leadPropertyList: [{ id: '9' }] });
		expect(afterWrite({}, { property: 'x' })).toEqual({ property: 'x' });
	});
});

describe('Only Fill Empty Fields: edges', () => {
	it('a restriction turned on is sent though the lead has it off; a value is compared with what the lead holds under its read name', () => {
		expect(onlyEmptyFields({ cannotCall: true, cannotText: true }, { cannotCall: false, cannotText: false }).body).toEqual({ cannotCall: true, cannotText: true });
		const home = { id: '77', streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '78701' };
		expect(onlyEmptyFields({ property: 'x' }, { leadPropertyList: [home] })).toEqual({ body: {}, kept: ['property'] });
	});

	it('lists of objects are the same only when every part is; a list is never the same as text', () => {
		expect(onlyEmptyFields({ list: [{ a: 1, b: 2 }] }, { list: [{ a: 1, b: 3 }] }).kept).toEqual(['list']);
		expect(onlyEmptyFields({ x: [1] }, { x: '1' }).kept).toEqual(['x']);
	});

	it('nothing left to fill: the body has no fields at all (so nothing is sent)', () => {
		expect(Object.keys(onlyEmptyFields({ firstName: 'A', source: 'B' }, { firstName: 'C', source: 'B' }).body)).toEqual([]);
	});

	it('a property: an address part absent on one side and blank on the other is the same; its ID is not a field to fill', () => {
		const lofty = { id: '77', streetAddress: '1 Elm St', city: 'Austin', state: 'TX', zipCode: '', baths: -1 };
		const result = onlyEmptyFields({ property: { id: 0, streetAddress: '1 Elm St', city: 'Austin', state: 'TX', baths: 2 } }, { leadPropertyList: [lofty] });
		expect(result).toEqual({ body: { property: { baths: 2, id: 77n, streetAddress: '1 Elm St', city: 'Austin', state: 'TX' } }, kept: [] });
		// An ID that is not all digits is sent as given.
		const odd = { ...lofty, id: '7-b' };
		expect(onlyEmptyFields({ property: { id: '7-b', baths: 2 } }, { leadPropertyList: [odd] }).body.property).toEqual(expect.objectContaining({ id: '7-b', baths: 2 }));
	});

	it('multi-choice values: a list after spaces, numbers as choices; a list holding anything else is compared as text; a lead\'s odd entries passed over', () => {
		const lead = { customAttributes: [null, { attributeName: 'Areas', value: '["North"]' }, { attributeName: 'Rooms', value: '[1,2]' }] };
		expect(withCurrentChoices({ customAttributeList: [{ attributeName: 'Areas', value: ' ["West"]' }] }, lead).customAttributeList).toEqual([{ attributeName: 'Areas', value: '["North","West"]' }]);
		expect(onlyEmptyFields({ customAttributeList: [{ attributeName: 'Rooms', value: '[3]' }] }, lead).body).toEqual({ customAttributeList: [{ attributeName: 'Rooms', value: '["1","2","3"]' }] });
		expect(onlyEmptyFields({ customAttributeList: [{ attributeName: 'Areas', value: '["North",{"x":1}]' }] }, lead)).toEqual({ body: {}, kept: ['customFields.Areas'] });
	});
});

describe('afterWrite: edges', () => {
	it('tag changes are not values of the lead; other lists and objects are values, not custom fields or properties', () => {
		expect(afterWrite({ firstName: 'A' }, { tagsAdd: ['T'], tagsRemove: ['U'], clearAllTags: true })).toEqual({ firstName: 'A' });
		expect(afterWrite({}, { segments: ['s'], other: { a: 1 } })).toEqual({ segments: ['s'], other: { a: 1 } });
		expect(afterWrite({}, { customAttributeList: [null, { attributeName: 'A', value: '1' }] })).toEqual({ customAttributes: [null, { attributeName: 'A', value: '1' }] });
	});
});
