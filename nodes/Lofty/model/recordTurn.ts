import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from './types';

/**
 * The unit of concurrency is the item: with Parallel Requests above 1, items run at once, but the items that
 * write to one record take turns, in item order, each for its whole work (reads of current values, readings,
 * prepare, the write, the follow-up read). Which values name that record comes from the operation's table entry:
 * `record` where it says so (an ID in the body, or `[]` for the one company), else the ID parameters in the path.
 * Reads take no turn.
 */

/** Whether an operation only reads (lists are reads even when they search by POST). */
export const isRead = (op: OperationDef): boolean => op.method === 'GET' || op.pagination !== undefined;

/** The names of the parameters that name the record a write changes (none for reads and plain creates). */
export function recordParams(op: OperationDef): string[] {
	if (isRead(op)) return [];
	if (op.record) return op.record;
	return op.params.filter((p) => p.in === 'path' && (p.type === 'id' || p.type === 'locator')).map((p) => p.name);
}

/**
 * The turn keys of one item: `name=value` per record parameter (so Update and Delete of one lead share the key
 * `leadId=…`), or the path where the operation writes the one record of its kind.
 */
export function recordKeys(op: OperationDef, values: IDataObject): string[] {
	if (isRead(op)) return [];
	if (op.record?.length === 0) return [op.path];
	return recordParams(op)
		.filter((name) => values[name] !== undefined && values[name] !== '')
		.map((name) => `${name}=${String(values[name])}`);
}
