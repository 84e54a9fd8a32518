import { parseJson, stringifyJson, toInt64 } from '../../sandbox/core/json';

describe('lossless JSON', () => {
	it('keeps integers beyond 2^53 exact as bigint', () => {
		const v = parseJson('{"a":9007199254740993,"b":-12345678901234567,"c":42,"d":1.5,"e":1e3}') as Record<string, unknown>;
		expect(v.a).toBe(9007199254740993n);
		expect(v.b).toBe(-12345678901234567n);
		expect(v.c).toBe(42);
		expect(v.d).toBe(1.5);
		expect(v.e).toBe(1000);
	});

	it('writes bigint as bare numerals and round-trips', () => {
		const text = '{"leadId":9007199254740993,"ids":[12345678901234567,1],"s":"x\\"y","n":null}';
		expect(stringifyJson(parseJson(text))).toBe(text);
		expect(stringifyJson({ a: undefined, b: 1n })).toBe('{"b":1}');
	});

	it('rejects malformed JSON', () => {
		for (const bad of ['{', '{"a":}', '[1,]', '{"a":1} x', "{'a':1}", '01']) expect(() => parseJson(bad)).toThrow();
	});

	it('does not let "__proto__" pollute prototypes', () => {
		const v = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.keys(v)).toEqual(['__proto__']);
	});

	it('toInt64 accepts integers, bigints and numeric strings (as Java backends do)', () => {
		expect(toInt64('9007199254740993')).toBe(9007199254740993n);
		expect(toInt64(12)).toBe(12n);
		expect(toInt64(9007199254740993n)).toBe(9007199254740993n);
		expect(toInt64(undefined)).toBeUndefined();
		expect(toInt64('12a')).toBeNull();
		expect(toInt64(1.5)).toBeNull();
	});
});
