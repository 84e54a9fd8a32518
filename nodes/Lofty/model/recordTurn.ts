import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from './types';

/**
 * The item is the unit of concurrency: with Parallel Requests above 1, items run at once, but the items that
 * write to one record take turns, in item order, each for its whole work (reads of current values, readings,
 * prepare, the write, the follow-up read). Which values name that record comes from the operation's table entry:
 * `record` where it says so, else the ID parameters in the path. An entry of `record` that is not a parameter
 * names one thing of the team that the operation changes (the company, the license seats): every item of an
 * operation naming it takes that turn. Reads take no turn.
 */

/** Whether an operation only reads (lists are reads even when they search by POST). */
export const isRead = (op: OperationDef): boolean => op.method === 'GET' || op.pagination !== undefined;

/** What names the record a write changes: parameter names and team-wide names (none for reads and plain creates). */
export function recordParams(op: OperationDef): string[] {
	if (isRead(op)) return [];
	if (op.record) return op.record;
	return op.params.filter((p) => p.in === 'path' && (p.type === 'id' || p.type === 'locator')).map((p) => p.name);
}

/**
 * The turn keys of one item: `name=value` per record parameter (so Update and Delete of one lead share the key
 * `leadId=…`; a list gives one key per entry, as tag names), `#name` for a team-wide record.
 */
export function recordKeys(op: OperationDef, values: IDataObject): string[] {
	const keys: string[] = [];
	for (const name of recordParams(op)) {
		if (!op.params.some((p) => p.name === name)) keys.push(`#${name}`);
		else if (Array.isArray(values[name])) keys.push(...(values[name] as unknown[]).map((v) => `${name}=${String(v)}`));
		else if (values[name] !== undefined && values[name] !== '') keys.push(`${name}=${String(values[name])}`);
	}
	return keys;
}
