/**
 * A repeating server, for the guards of a client's Return All (see ./faults.ts for how they are injected):
 * - repeatPage: the answer is the last answer the same `METHOD path` got (a page repeated; with it the
 *   cursor, scroll id or last keyset id that does not advance);
 * - staleCursor: a fresh page whose cursor field still holds the cursor the request sent;
 * - pageCap: the page-size parameter is lowered before the handler runs, so the page is shorter than asked
 *   while the total says more (a server with a smaller maximum page);
 * - overstateTotal: the total of the answer is larger than the records there are.
 */
import type { ActiveFault } from './faults';
import type { Reply } from './router';

/** Before the handler: a page-size cap rewrites the query. */
export function capQuery(fault: ActiveFault | undefined, query: URLSearchParams): void {
	if (fault?.kind !== 'pageCap' || !fault.param) return;
	const asked = Number(query.get(fault.param));
	if (query.has(fault.param) && Number.isFinite(asked) && asked > fault.max) query.set(fault.param, String(fault.max));
}

function setAt(body: unknown, path: string, value: unknown): void {
	const parts = path.split('.');
	let node = body as Record<string, unknown> | undefined;
	for (const part of parts.slice(0, -1)) {
		const next = node?.[part];
		if (next === null || typeof next !== 'object') return;
		node = next as Record<string, unknown>;
	}
	if (node && typeof node === 'object') node[parts[parts.length - 1]] = value;
}

function getAt(body: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), body);
}

/** After the handler: the cursor left where it was, the total raised. */
export function editAnswer(fault: ActiveFault | undefined, reply: Reply, query: URLSearchParams): void {
	if (!fault || reply.raw !== undefined || (reply.status ?? 200) >= 300) return;
	if (fault.kind === 'staleCursor' && fault.param && fault.field && query.has(fault.param)) {
		setAt(reply.body, fault.field, query.get(fault.param));
	}
	if (fault.kind === 'overstateTotal' && fault.field) {
		const total = Number(getAt(reply.body, fault.field));
		if (Number.isFinite(total)) setAt(reply.body, fault.field, total + fault.by);
	}
}
