import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { mapperFields } from '../model/customFields';
import { LEAD_CUSTOM_FIELDS, TRANSACTION_CUSTOM_FIELDS } from '../resources/customFieldSources';

/** The team's lead custom fields for the Custom Fields mapper of the lead writes. */
export async function getLeadCustomFieldMapping(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await mapperFields(this, LEAD_CUSTOM_FIELDS);
}

/** The team's transaction custom fields for the Custom Fields mapper of the transaction writes. */
export async function getTransactionCustomFieldMapping(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await mapperFields(this, TRANSACTION_CUSTOM_FIELDS);
}

/** The node's resourceMapping methods. */
export const resourceMapping = { getLeadCustomFieldMapping, getTransactionCustomFieldMapping };
