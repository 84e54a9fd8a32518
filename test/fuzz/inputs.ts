/** Generated inputs for every parameter type: a valid value, and bad ones (see operations.test.ts). */
import type { ParamDef } from '../../nodes/Lofty/model/types';
import { byId } from '../harness/sandbox';

export const MAX = '9223372036854775807';
export const LONG = 'x'.repeat(20_000);
export const HTML = '<script>alert("x")</script><b onmouseover=alert(1)>hi</b>';

/** A value the node must refuse itself (`local`), or one it may pass on for Lofty to judge. */
export interface Case {
	label: string;
	value: unknown;
	local: boolean;
}

export function valid(p: ParamDef): unknown {
	switch (p.type) {
		case 'id':
			return '1';
		case 'locator':
			return byId(p.locator?.idKind === 'text' ? '1-task' : '1');
		case 'string':
			return p.contact === 'email' ? 'jane@example.com' : p.contact ? '4155550101' : 'x';
		case 'number':
			return Math.min(Math.max(1, p.min ?? 1), p.max ?? 1);
		case 'boolean':
			return true;
		case 'options':
			return p.options?.[0]?.value ?? 'x';
		case 'multiOptions':
			return [p.options?.[0]?.value ?? 'x'];
		case 'json':
			return p.jsonShape === 'array' ? '[]' : '{}';
		case 'dateTime':
			return '2026-01-31T09:00:00Z';
		case 'stringList':
		case 'tagList':
			return [p.contact === 'email' ? 'jane@example.com' : p.contact ? '4155550101' : 'x'];
		case 'idList':
			return ['1'];
		case 'fixedCollection':
			return { values: [Object.fromEntries((p.fields ?? []).filter((f) => f.required).map((f) => [f.name, valid(f)]))] };
	}
}

export function cases(p: ParamDef): Case[] {
	const c = (label: string, value: unknown, local: boolean): Case => ({ label, value, local });
	const common = [c('HTML', HTML, false), c('very long string', LONG, false)];
	const empty = p.required ? [c('empty', '', true), c('null', null, true)] : [c('empty', '', false)];
	switch (p.type) {
		case 'id':
			return [
				...empty,
				c('0', '0', true),
				c('-1', '-1', !p.allowMinusOne),
				c('2^63', '9223372036854775808', true),
				c('2^63-1', MAX, false),
				c('decimal', 1.5, true),
				c('text', 'abc', true),
				c('HTML', HTML, true),
				c('object', { a: 1 }, true),
				c('very long digits', '9'.repeat(5000), true),
			];
		case 'locator':
			if (p.locator?.idKind === 'text') return [...empty, ...common, c('object', { mode: 'id', value: { a: 1 } }, false)];
			return [
				...(p.required ? [c('empty', byId(''), true)] : []),
				c('0', byId('0'), true),
				c('-1', byId('-1'), true),
				c('2^63', byId('9223372036854775808'), true),
				c('2^63-1', byId(MAX), false),
				c('text', byId('abc'), true),
				c('HTML', byId(HTML), true),
				// A required locator's URL is read by n8n itself (which refuses a URL not of the pattern).
				...(p.required ? [] : [c('bad URL', { __rl: true, mode: 'url', value: 'https://example.com/nothing' }, !!p.locator?.urlRegex)]),
			];
		case 'number':
			return [
				c('text', 'abc', true),
				c('object', { a: 1 }, true),
				c('Infinity', Infinity, true),
				c('NaN', NaN, true),
				...(p.min !== undefined ? [c('below minimum', p.min - 1, true)] : []),
				...(p.max !== undefined ? [c('above maximum', p.max + 1, true)] : [c('huge', 1e308, false)]),
				c('negative', -1, p.min !== undefined && p.min > -1),
			];
		case 'boolean':
			return [c('text', 'maybe', true), c('number 2', 2, true), c('object', { a: 1 }, true)];
		case 'options':
			if (p.loadOptions) return [...empty, ...common];
			return [...empty, c('unknown option', 'not-an-option', true), c('number', 42, true), c('object', { a: 1 }, true), c('HTML', HTML, true)];
		case 'multiOptions':
			return [c('number', 42, true), c('object', { a: 1 }, true), ...(p.loadOptions ? common : [])];
		case 'json':
			return [
				...empty,
				c('malformed object', '{"a": ', true),
				c('malformed array', '[1, 2', true),
				c('trailing comma', '{"a": 1,}', true),
				c('not JSON', HTML, true),
				...(p.jsonShape === 'object' ? [c('array for object', '[]', true), c('string for object', '"text"', true)] : []),
				...(p.jsonShape === 'array' ? [c('object for array', '{}', true)] : []),
				c('deep nesting', `${'['.repeat(500)}${']'.repeat(500)}`, p.jsonShape === 'object'),
				c('2^63-1 inside', `{"id": ${MAX}}`, p.jsonShape === 'array'),
			];
		case 'dateTime':
			return [
				...empty,
				c('not a date', 'not a date', true),
				c('month 13', '2026-13-45T00:00:00Z', true),
				c('HTML', HTML, true),
				c('boolean', true, true),
				c('object', { a: 1 }, true),
				c('far future digits', '99999999999999999999', true),
			];
		case 'string':
			return [...empty, ...common, c('object', { a: 1 }, true), c('array', ['a', 'b'], true), c('number', 12345, false), c('control characters', 'a\u0000b\u001fc', false)];
		case 'stringList':
			return [c('number', 42, true), c('object', { a: 1 }, true), c('HTML', [HTML], false), c('long entry', [LONG], false)];
		case 'tagList':
			return [
				c('object', { a: 1 }, true),
				c('object entry', ['a', { a: 1 }], true),
				c('HTML', [HTML], false),
				c('long entry', [LONG], p.maxLength !== undefined),
				c('only commas', ', ,', false),
			];
		case 'idList':
			return [c('0', ['0'], true), c('-1', ['5', '-1'], true), c('text', 'abc', true), c('number', 42, true), c('2^63-1', [MAX], false)];
		case 'fixedCollection':
			return [c('text', 'x', true), c('rows not a list', { values: 'x' }, true), c('null row', { values: [null] }, true)];
	}
}

