import type { IDataObject } from 'n8n-workflow';

import { buildRequest } from '../../model/execute';
import type { OperationContext, OperationDef } from '../../model/types';
import { readBack, send } from './upsert';

/**
 * Lead > Create: sends the create, then reads the new lead back so that the output is the lead as Lofty now holds
 * it (names, stored phones, tags, custom fields), as Create or Update does. Lofty makes a new lead readable only
 * after a short delay: the read is tried again for a few seconds, then the item carries Lofty's answer and a note.
 * The lead exists once the create is answered, so a failed read never fails the item (a retried item would create
 * the lead twice).
 */
export async function createAndRead(op: OperationContext, create: OperationDef): Promise<IDataObject> {
	const { path, body } = buildRequest(create, op.values);
	const answer = await send(op, create.method, path, body);
	const leadId = String(answer.leadId);
	try {
		const read = await readBack(op, leadId, 'created');
		return { ...answer, ...read.lead, leadId };
	} catch (error) {
		return { ...answer, leadId, note: `The lead was created; reading it back failed (${(error as Error).message}). Read it later with Lead > Get.` };
	}
}
