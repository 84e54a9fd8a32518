import type { ILoadOptionsFunctions, INodePropertyOptions, ResourceMapperFields } from 'n8n-workflow';

import { choiceOptions, mapperFields } from '../model/customFields';
import type { CustomFieldSource } from '../model/types';
import { LEAD_CUSTOM_FIELDS, TRANSACTION_CUSTOM_FIELDS } from '../model/customFieldSources';
import { credentialType } from '../transport/request';
import type { MethodSet } from './types';

/**
 * The editor asks for the list as soon as the panel opens, with the credentials the node has at that moment. A
 * credential the editor picks by itself arrives a moment later (it first fetches the usable credentials); n8n's
 * mapper asks again only when a parameter it depends on changes, so choosing a credential changes Authentication
 * (see AUTHENTICATION_NOT_CHOSEN). Until then the list is empty with a notice, not an error: n8n shows nothing at
 * all for a failed list (no retry) and logs a 500.
 */
async function fieldsOrNotice(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<ResourceMapperFields> {
	if (!ctx.getNode().credentials?.[credentialType(ctx)]) {
		return {
			fields: [],
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

/** The choices of the team's multi-choice lead custom fields, for Multi-Choice Custom Fields. */
export async function getLeadCustomFieldChoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return this.getNode().credentials?.[credentialType(this)] ? await choiceOptions(this, LEAD_CUSTOM_FIELDS) : [];
}

/** The same for the transaction custom fields. */
export async function getTransactionCustomFieldChoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return this.getNode().credentials?.[credentialType(this)] ? await choiceOptions(this, TRANSACTION_CUSTOM_FIELDS) : [];
}

export const customFieldChoiceMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadCustomFieldChoices, getTransactionCustomFieldChoices } };
