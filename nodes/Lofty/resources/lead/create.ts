import type { IDataObject } from 'n8n-workflow';

import { buildRequest } from '../../model/execute';
import type { OperationContext, OperationDef } from '../../model/types';
import { createThenRead } from './writeRead';

/**
 * Lead > Create: sends the create, then reads the new lead back so that the output is the lead as Lofty now holds it
 * (names, stored phones, tags, custom fields), as Create or Update does (writeRead.ts: a failed read gives a note,
 * never a failed item).
 */
export async function createAndRead(op: OperationContext, create: OperationDef): Promise<IDataObject> {
	const { path, body } = buildRequest(create, op.values);
	const { answer, leadId, lead } = await createThenRead(op, create, path, (body ?? {}) as IDataObject);
	return { ...answer, ...lead, leadId };
}
