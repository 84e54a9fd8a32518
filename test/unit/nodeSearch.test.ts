/**
 * What a person types in n8n's node search finds the right Lofty node. The editor (n8n @n8n/utils sublimeSearch, used
 * by the node creator's searchNodes) matches a query against each node's display name and its codex aliases only, and
 * keeps a node when every letter of the query appears in one of them in order; the action texts are searched only inside
 * a node. So each query below must be a subsequence of an alias (or the name) of the node that does it.
 */
import lofty from '../../nodes/Lofty/Lofty.node.json';
import trigger from '../../nodes/LoftyTrigger/LoftyTrigger.node.json';

/** n8n's first filter: every character of the query, in order, case-insensitive. */
function subsequence(query: string, target: string): boolean {
	let i = 0;
	for (const ch of target.toLowerCase()) if (ch === query[i]) i++;
	return i === query.length;
}

const finds = (names: string[], query: string) => names.some((n) => subsequence(query.toLowerCase(), n));

describe('node search (display name and aliases)', () => {
	it.each(['download recording', 'recording', 'send text', 'send SMS', 'create task', 'lead'])('"%s" finds the Lofty node', (query) => {
		expect(finds(['Lofty', ...lofty.alias], query)).toBe(true);
	});

	it.each(['stage changed', 'new lead', 'call recording', 'text message'])('"%s" finds the Lofty Trigger', (query) => {
		expect(finds(['Lofty Trigger', ...trigger.alias], query)).toBe(true);
	});

	it('"lead" is an alias of its own, so it scores as an exact match', () => {
		expect(lofty.alias.map((a) => a.toLowerCase())).toContain('lead');
		expect(trigger.alias.map((a) => a.toLowerCase())).toContain('lead');
	});
});
