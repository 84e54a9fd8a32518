import { parseJson, stringifyJson } from '../../nodes/Lofty/transport/json';

describe('lossless JSON parsing', () => {
	it('keeps integers beyond 2^53 exact, as strings', () => {
		const parsed = parseJson('{"leadId":9007199254740993,"ids":[12345678901234567,-9223372036854775807]}') as Record<string, unknown>;
		expect(parsed).toEqual({ leadId: '9007199254740993', ids: ['12345678901234567', '-9223372036854775807'] });
	});

	it('leaves safe integers, decimals and exponents as numbers', () => {
		expect(parseJson('[9007199254740991,1.5,1e21,-0.25,123456789012345678.5]')).toEqual([9007199254740991, 1.5, 1e21, -0.25, 123456789012345678.5]);
	});

	it('does not touch digits inside strings, including escaped quotes', () => {
		const text = '{"note":"call 90071992547409931234 \\"now\\"","n":90071992547409931234}';
		expect(parseJson(text)).toEqual({ note: 'call 90071992547409931234 "now"', n: '90071992547409931234' });
	});

	it('parses bare strings and literals', () => {
		expect(parseJson('"LEAD_NOT_EXIST"')).toBe('LEAD_NOT_EXIST');
		expect(parseJson('[true,false,null]')).toEqual([true, false, null]);
	});

	it('rejects malformed JSON', () => {
		expect(() => parseJson('{"a":')).toThrow();
	});

	it('writes bigints as exact integer literals', () => {
		expect(stringifyJson({ id: BigInt('9007199254740993'), list: [BigInt(1), 'x'], skip: undefined, nested: { ok: true } })).toBe(
			'{"id":9007199254740993,"list":[1,"x"],"nested":{"ok":true}}',
		);
	});
});

describe('identifiers as strings', () => {
	it('returns every integer under an ID key as a string, whatever its size', () => {
		const text = '{"leadId":12,"agentIds":[1,9007199254740993],"teamId":-1,"count":5,"nested":{"id":7,"price":100},"list":[{"userId":3}]}';
		expect(parseJson(text, { idsAsStrings: true })).toEqual({
			leadId: '12',
			agentIds: ['1', '9007199254740993'],
			teamId: '-1',
			count: 5,
			nested: { id: '7', price: 100 },
			list: [{ userId: '3' }],
		});
	});

	it('leaves keys that merely contain "id" alone', () => {
		expect(parseJson('{"valid":1,"paid":2,"width":3,"hidden":4}', { idsAsStrings: true })).toEqual({ valid: 1, paid: 2, width: 3, hidden: 4 });
	});
});
