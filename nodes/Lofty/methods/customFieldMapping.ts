import type { ILoadOptionsFunctions, INodePropertyOptions, ResourceMapperFields } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choiceOptions, mapperFields, mapperFieldsOf } from '../model/customFieldsEditor';
import type { CustomFieldSource } from '../model/types';
import { LEAD_CUSTOM_FIELDS, TRANSACTION_CUSTOM_FIELDS } from '../model/customFieldSources';
import { credentialType } from '../transport/request';
import type { MethodSet } from './types';

/**
 * The editor asks for the list when the field appears (the panel opens, the operation shows it), with the credentials
 * the node has at that moment, and not again by itself (model/customFieldsEditor.ts: the mapper depends on no
 * parameter, so that n8n never empties it). A credential chosen after that is used once the node is opened again.
 * Without a credential: the fields the node holds values for, or, when there are none, a notice saying so (not an
 * error: n8n shows nothing at all for a failed list and logs a 500).
 */
async function fieldsOrNotice(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<ResourceMapperFields> {
	if (!ctx.getNode().credentials?.[credentialType(ctx)]) {
		return {
			fields: mapperFieldsOf(ctx, source),
			emptyFieldsNotice: `The team's ${source.what} custom fields are listed from Lofty once a credential is chosen above. Chosen already? Close this node and open it again.`,
		};
	}
	return await mapperFields(ctx, source);
}

/** The team's lead custom fields for the Custom Fields mapper of the lead writes. */
export async function getLeadCustomFieldMapping(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await fieldsOrNotice(this, LEAD_CUSTOM_FIELDS);
}

/** The team's transaction custom fields for the Custom Fields mapper of the transaction writes. */
export async function getTransactionCustomFieldMapping(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await fieldsOrNotice(this, TRANSACTION_CUSTOM_FIELDS);
}

/** The node's resourceMapping methods. */
export const resourceMapping = { getLeadCustomFieldMapping, getTransactionCustomFieldMapping };

/**
 * The choices without a credential: an error that says what to do (n8n shows a failed list's message beside the
 * field), not an empty list, which n8n shows as "No data" as if the team had no multi-choice fields.
 */
async function choicesOrError(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<INodePropertyOptions[]> {
	if (!ctx.getNode().credentials?.[credentialType(ctx)]) {
		throw new NodeOperationError(ctx.getNode(), `The choices of the team's multi-choice ${source.what} custom fields are listed from Lofty once a credential is chosen above; then close this node and open it again`);
	}
	return await choiceOptions(ctx, source);
}

/** The choices of the team's multi-choice lead custom fields, for Multi-Choice Custom Fields. */
export async function getLeadCustomFieldChoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await choicesOrError(this, LEAD_CUSTOM_FIELDS);
}

/** The same for the transaction custom fields. */
export async function getTransactionCustomFieldChoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await choicesOrError(this, TRANSACTION_CUSTOM_FIELDS);
}

export const customFieldChoiceMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadCustomFieldChoices, getTransactionCustomFieldChoices } };
