import { RESOURCES } from '../../nodes/Lofty/resources';
import lofty from '../../nodes/Lofty/Lofty.node.json';
import trigger from '../../nodes/LoftyTrigger/LoftyTrigger.node.json';
import polling from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node.json';

/**
 * Finding the right action (issue 19, point 7): n8n's node search reads the codex aliases and the action texts;
 * inside the node the actions are one list, so each text must be unique, and operations that overlap (an older
 * version, the same request under two resources, four ways to create a task) say when to use which.
 */

const operations = RESOURCES.flatMap((resource) => resource.operations.map((op) => ({ resource, op, title: `${resource.name} > ${op.name}` })));

describe('action texts', () => {
	it('no two operations share an action text (ignoring case)', () => {
		const seen = new Map<string, string>();
		const repeats: string[] = [];
		for (const { op, title } of operations) {
			const key = op.action.toLowerCase();
			if (seen.has(key)) repeats.push(`"${op.action}": ${seen.get(key)} and ${title}`);
			else seen.set(key, title);
		}
		expect(repeats).toEqual([]);
	});

	it('every V1 operation names the operation to prefer', () => {
		const v1 = operations.filter(({ op }) => /\(V1\)/.test(op.name));
		expect(v1.length).toBeGreaterThanOrEqual(8);
		for (const { op, title } of v1) expect([title, op.description]).toEqual([title, expect.stringMatching(/prefer /i)]);
	});

	it('two operations sending the same request name each other', () => {
		const byRequest = new Map<string, typeof operations>();
		for (const entry of operations.filter(({ op }) => !op.run && !op.route)) {
			const key = `${entry.op.method} ${entry.op.path}`;
			byRequest.set(key, [...(byRequest.get(key) ?? []), entry]);
		}
		// One endpoint, two different actions (what the node sends differs): not an overlap a person chooses between.
		const distinct = [['Listing > Get Active Listings', 'Listing > Get Sold Listings'], ['Organization > Create Office', 'Organization > Update Office'], ['Call > Get Recording URL', 'Call > Download Recording']];
		const shared = [...byRequest.values()].filter((list) => list.length > 1 && !distinct.some((d) => d.join() === list.map((o) => o.title).join()));
		expect(shared.length).toBe(9);
		for (const list of shared) {
			for (const { op, title } of list) {
				for (const other of list.filter((o) => o.op !== op)) expect([title, op.description]).toEqual([title, expect.stringContaining(other.title)]);
			}
		}
	});

	it('the operations that create a task each say which one to use', () => {
		const creating = operations.filter(({ op }) => op.method === 'POST' && /\btasks?\b/i.test(op.action) && /^(create|add)\b/i.test(op.action));
		expect(creating.map((c) => c.title).sort()).toEqual(['Calendar > Create', 'Sales Agent > Create Plan Tasks', 'Task > Create', 'Task > Create (V1)']);
		for (const { op, title } of creating) {
			const named = creating.filter((c) => c.title !== title && op.description.includes(c.title));
			expect([title, named.length > 0]).toEqual([title, true]);
		}
	});
});

/** n8n's first filter of a search: every letter of the query, in order, case-insensitive. */
const matches = (query: string, text: string): boolean => {
	let i = 0;
	for (const ch of text.toLowerCase()) if (ch === query[i]) i++;
	return i === query.length;
};

describe('actions found inside the node (issue 46)', () => {
	it('after "create task" the one action reading "Create a task..." is Task > Create; Calendar > Create does not read as it', () => {
		const found = operations.filter(({ op }) => matches('create task', op.action));
		expect(found.filter(({ op }) => /^create a task/i.test(op.action)).map((f) => f.title)).toEqual(['Task > Create']);
		expect(found.map((f) => f.title)).not.toContain('Calendar > Create');
		// Still found by what it is.
		const calendar = operations.find((o) => o.title === 'Calendar > Create')!.op.action;
		for (const query of ['calendar', 'add task', 'appointment']) expect([query, matches(query, calendar)]).toEqual([query, true]);
	});
});

describe('node search', () => {
	const aliases = (codex: { alias?: string[] }) => (codex.alias ?? []).map((a) => a.toLowerCase());

	it.each(['CRM', 'real estate', 'lead', 'contact', 'add a note to a lead', 'create a task'])('the Lofty node is found by "%s"', (query) => {
		expect(aliases(lofty)).toContain(query.toLowerCase());
	});

	it.each([
		['Lofty Trigger', trigger],
		['Lofty Polling Trigger', polling],
	])('%s is found by CRM, real estate, lead, contact and new lead', (_name, codex) => {
		for (const query of ['crm', 'real estate', 'lead', 'contact', 'new lead']) expect(aliases(codex)).toContain(query);
	});

	it('what the aliases promise is an action of the node', () => {
		const actions = operations.map(({ op }) => op.action.toLowerCase());
		expect(actions).toContain('add a note to a lead');
		expect(actions).toContain('create a task');
	});
});
