/** Whether one item's turn waits for another's (model/turns.ts): shared by the turn tests. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { heldTurns, inTurn } from '../../nodes/Lofty/model/turns';
import type { OperationDef } from '../../nodes/Lofty/model/types';
import { gate, tick } from '../harness/gates';

/** Whether `second`'s item (of `op` on `values`) waits for `first`'s while it runs; nothing is held afterwards. */
export async function secondWaits(first: IExecuteFunctions, second: IExecuteFunctions, op: OperationDef, values: IDataObject): Promise<boolean> {
	const log: string[] = [];
	const held = gate();
	const a = inTurn(first, op, values, async () => (log.push('first'), await held.promise, log.push('first end')));
	const b = inTurn(second, op, values, async () => log.push('second'));
	await tick();
	const waited = !log.includes('second');
	held.open();
	await Promise.all([a, b]);
	expect(heldTurns()).toBe(0);
	return waited;
}
