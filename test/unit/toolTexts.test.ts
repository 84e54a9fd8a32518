/**
 * The action texts as a model reads them: n8n describes each Lofty tool as "<action> in Lofty", and that sentence alone
 * is what a model picks a tool by. Each is unique in the node, within OpenAI's limits (a description of at most 1024
 * characters), in sentence case, free of the editor's words (fields, menus, "> ") a model cannot act on, and an older
 * endpoint's operation says it is the older one. The operations a tool's not-found message names exist.
 */
import { actionOf } from '../../nodes/Lofty/model/effects';
import { RESOURCES } from '../../nodes/Lofty/resources';

const operations = RESOURCES.flatMap((resource) => resource.operations.map((op) => ({ resource, op, title: `${resource.name} > ${op.name}` })));
const description = (action: string) => `${action} in Lofty`;

/** Words that keep their capitals inside a sentence: names, acronyms and Lofty's product names. */
const PROPER = new Set(['Lofty', 'AI', 'SMS', 'ID', 'IDs', 'URL', 'XML', 'MLS', 'V1', 'Brokermint', 'Sales', 'Agent']);

describe('action texts, as a model reads them', () => {
	it.each(operations.map(({ title, op }) => [title, actionOf(op)] as const))('%s: "%s" is a sentence-case description within OpenAI\'s limit', (_title, action) => {
		expect(description(action).length).toBeLessThanOrEqual(1024);
		expect(action).toMatch(/^[A-Z]/);
		const words = action.split(/[\s-]+/).slice(1).map((w) => w.replace(/^\(|[),.:]$/g, '').replace(/'s$/, ''));
		const capitalised = words.filter((w) => /^[A-Z]/.test(w) && !PROPER.has(w));
		expect(capitalised).toEqual([]);
		expect(action).not.toMatch(/ > |\bnode\b|dropdown|Additional Fields|Options|expression|with the V1 API/i);
	});

	it('no two operations share a description (ignoring case)', () => {
		const texts = operations.map(({ op }) => description(actionOf(op)).toLowerCase());
		expect(new Set(texts).size).toBe(texts.length);
	});

	it('every operation of an older endpoint says so in its action', () => {
		const older = operations.filter(({ op }) => /\(V1\)/.test(op.name));
		expect(older.length).toBeGreaterThanOrEqual(8);
		for (const { title, op } of older) expect([title, op.action]).toEqual([title, expect.stringMatching(/\(older V1 endpoint/)]);
	});

	it('tasks, appointments and the calendar are told apart; so are the call look-ups and the texts to yourself', () => {
		const action = (resource: string, value: string) => RESOURCES.find((r) => r.value === resource)!.operations.find((o) => o.value === value)!.action;
		expect(action('task', 'create')).toMatch(/task/);
		expect(action('appointment', 'create')).toMatch(/appointment/);
		expect(action('calendar', 'create')).toMatch(/calendar/);
		expect(action('call', 'get')).toMatch(/by call ID/);
		expect(action('call', 'getByCommunicationId')).toMatch(/by communication ID/);
		expect(action('notification', 'sendSms')).toMatch(/system number/);
		expect(action('salesAgent', 'sendSmsViaAiNumber')).toMatch(/AI number/);
	});
});
