import type { IDataObject } from 'n8n-workflow';

import type { ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

/** The lead, sent as `leadId` in the body. */
const leadInBody: ParamDef = {
	...leadInPath,
	in: 'body',
	requiredCode: 'MISSING_PARAMETER',
	description: 'The lead: pick it from the list, or give its ID or its Lofty URL',
};

/** AI endpoints have their own, lower rate limit; a 429 here is about that one. */
async function explainAiLimit(failure: { httpCode: number }): Promise<string | undefined> {
	if (failure.httpCode !== 429) return undefined;
	return 'Lofty AI features have a lower rate limit than the rest of the API. Run fewer AI requests per minute (for example with a Wait node between batches).';
}

const SUMMARY_STATUS: Record<number, string> = { 0: 'pending', 1: 'processing', 2: 'finished', 3: 'failed' };

export const ai: ResourceDef = {
	value: 'ai',
	name: 'AI',
	description: 'Lofty AI: call scripts and summaries, insights, lead analysis',
	errorHints: {
		'20012':
			'Lofty rejected a value: the message names it. A lead must exist and be visible to the Lofty user behind this credential, and IDs must be whole numbers.',
		MISSING_PARAMETER: 'A required field is missing.',
	},
	operations: [
		{
			value: 'generateCallScript',
			name: 'Generate Call Script',
			action: 'Generate an AI call script for a task of a lead',
			description: 'AI call script for a lead and one of its tasks: context, objectives and key talking points',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/ai/call-script',
			params: [
				leadInBody,
				{ name: 'taskId', label: 'Task ID', type: 'id', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER', placeholder: 'e.g. 300001', description: 'The call task the script is for' },
			],
			explainFailure: explainAiLimit,
		},
		{
			value: 'generateCallSummary',
			name: 'Generate Call Summary',
			action: 'Start an AI summary of a recorded call',
			description: 'Start the AI summary of a recorded call; fetch it later with Get Call Summary',
			notice: 'The summary is generated in the background: read it with "Get Call Summary" after a minute or so (a Wait node helps).',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/ai/call-summary/generate',
			// One summary per call record: the first request for it decides the lead.
			record: ['callRecordId'],
			params: [
				{ name: 'callRecordId', label: 'Call Record ID', type: 'id', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER', placeholder: 'e.g. 123456', description: 'The recorded call to summarize' },
				leadInBody,
			],
			explainFailure: explainAiLimit,
		},
		{
			value: 'getCallSummary',
			name: 'Get Call Summary',
			action: 'Get the AI summary of a recorded call',
			description: 'The AI summary of a recorded call: transcript, summary, keywords, score; status tells whether it is ready',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/ai/call-summary',
			params: [
				{ name: 'callRecordId', label: 'Call Record ID', type: 'id', in: 'query', required: true, requiredCode: 'MISSING_PARAMETER', placeholder: 'e.g. 123456' },
			],
			errorHints: {
				'20012': 'Lofty has no summary for this call record: start one with "Generate Call Summary" first, then read it once it is finished.',
			},
			// {status: {code, msg}, data: {...}}: the summary, with its processing status also in words.
			output: (response) => {
				const body = (response ?? {}) as IDataObject;
				const data = (body.data && typeof body.data === 'object' ? body.data : body) as IDataObject;
				const status = Number(data.status);
				return { ...data, statusName: SUMMARY_STATUS[status] ?? 'unknown' };
			},
			explainFailure: explainAiLimit,
		},
		{
			value: 'prepareInsight',
			name: 'Prepare Insight',
			action: 'Generate an AI insight to prepare an appointment',
			description: 'AI insight to prepare for an appointment with a lead',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/ai/prepare-insight',
			params: [
				leadInBody,
				{ name: 'appointmentId', label: 'Appointment ID', type: 'id', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER', placeholder: 'e.g. 200001' },
			],
			unwrap: 'data',
			explainFailure: explainAiLimit,
		},
		{
			value: 'createLeadAnalysis',
			name: 'Create Lead Analysis',
			action: 'Start an AI analysis of leads',
			description: 'Start an AI analysis task for a list of leads; it runs in the background',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/ai/lead-analysis',
			params: [
				{
					name: 'leadIds',
					label: 'Lead IDs',
					type: 'idList',
					in: 'body',
					required: true,
					requiredCode: 'MISSING_PARAMETER',
					placeholder: 'e.g. 651095960136641',
					description: 'Leads to analyze; at least one',
				},
			],
			unwrap: 'data',
			explainFailure: explainAiLimit,
		},
		{
			value: 'getLeadAnalyses',
			name: 'Get Lead Analysis Tasks',
			action: 'Get your open AI lead analysis tasks',
			description: 'Your open lead analysis tasks of the last 3 months (finished and canceled ones are not listed)',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/ai/lead-analysis',
			pagination: { style: 'page', pageParam: 'pageNum', sizeParam: 'pageSize', firstPage: 1, maxPageSize: 100, itemsKey: 'data.pageData', totalKey: 'data.totalCount' },
			params: [],
			explainFailure: explainAiLimit,
		},
	],
};
