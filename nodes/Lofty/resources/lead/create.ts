import type { IDataObject } from 'n8n-workflow';

import { buildRequest } from '../../model/execute';
import type { OperationContext, OperationDef } from '../../model/types';
import { personKeys } from './keys';
import { createThenRead } from './writeRead';

/**
 * Lead > Create: sends the create, then reads the new lead back so that the output is the lead as Lofty now holds it
 * (names, stored phones, tags, custom fields), as Create or Update does (writeRead.ts: a failed read gives a note,
 * never a failed item; the lead made is remembered for Create or Update).
 */
export async function createAndRead(op: OperationContext, create: OperationDef): Promise<IDataObject> {
	const { path, body } = buildRequest(create, op.values);
	const { answer, leadId, lead } = await createThenRead(op, create, path, (body ?? {}) as IDataObject);
	return { ...answer, ...lead, leadId };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Lead > Create's turn (model/turns.ts): the person, by every email and phone it sends, across the executions of the
 * account, so that it and Create or Update for that person run one after the other and the later finds the lead.
 */
export const CREATE_TURN: NonNullable<OperationDef['turn']> = {
	keys: (values) => personKeys(strings(values.emails), strings(values.phones)),
	scope: 'account',
};
