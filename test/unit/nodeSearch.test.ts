/**
 * What a person types in n8n's node search finds the right Lofty node. The editor (n8n @n8n/utils sublimeSearch, used
 * by the node creator's searchNodes) matches a query against each entry's display name and its codex aliases only, and
 * keeps an entry when every letter of the query appears in one of them in order; the action texts are searched only
 * inside a node. n8n merges a trigger into the node of the same name (LoftyTrigger into Lofty: one "Lofty" entry with
 * both nodes' actions) and keeps only the node's codex, so the Lofty Trigger's phrases must be aliases of the Lofty node.
 * The Lofty Polling Trigger has no node of its name and is an entry of its own. The editor check (test/e2e/editorSearch.ts)
 * types each phrase docs/operations.md names.
 */
import lofty from '../../nodes/Lofty/Lofty.node.json';
import polling from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node.json';
import trigger from '../../nodes/LoftyTrigger/LoftyTrigger.node.json';

/** n8n's first filter: every character of the query, in order, case-insensitive. */
function subsequence(query: string, target: string): boolean {
	let i = 0;
	for (const ch of target.toLowerCase()) if (ch === query[i]) i++;
	return i === query.length;
}

const finds = (names: string[], query: string) => names.some((n) => subsequence(query.toLowerCase(), n));

/** The entries of the node search: Lofty (with the trigger merged in, Lofty's codex) and the Lofty Polling Trigger. */
const LOFTY_ENTRY = ['Lofty', ...lofty.alias];
const POLLING_ENTRY = ['Lofty Polling Trigger', ...polling.alias];

describe('node search (display name and aliases)', () => {
	it.each(['download recording', 'recording', 'send text', 'send SMS', 'create task', 'lead', 'add tag', 'get lead', 'change stage', 'text a lead', 'assign agent', 'assign lead', 'who am i'])('"%s" finds the Lofty entry', (query) => {
		expect(finds(LOFTY_ENTRY, query)).toBe(true);
	});

	it.each(['stage changed', 'new lead', 'call recording', 'text message'])('"%s" finds the Lofty entry, which holds the Lofty Trigger', (query) => {
		expect(finds(LOFTY_ENTRY, query)).toBe(true);
	});

	it('"new lead" finds the Lofty Polling Trigger too', () => {
		expect(finds(POLLING_ENTRY, 'new lead')).toBe(true);
	});

	it("every alias of the Lofty Trigger is an alias of the Lofty node (n8n keeps only the node's codex)", () => {
		const node = new Set(lofty.alias.map((a) => a.toLowerCase()));
		expect(trigger.alias.filter((a) => !node.has(a.toLowerCase()))).toEqual([]);
	});

	it('"lead" is an alias of its own, so it scores as an exact match', () => {
		expect(lofty.alias.map((a) => a.toLowerCase())).toContain('lead');
	});
});
