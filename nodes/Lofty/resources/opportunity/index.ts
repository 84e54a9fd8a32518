import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

/** notificationType codes of the OpenAPI, by what the lead did. */
const TYPES: Array<[string, number]> = [
	['Back to Site (Viewed a Listing)', 166],
	['Browsed a Home (New Homes)', 48],
	['Browsed (App)', 138],
	['Favorited a Home (New Homes)', 52],
	['Favorited (App)', 136],
	['House Evaluation (App)', 141],
	['Left a Message', 65],
	['Re-Inquired on Text Code', 165],
	['Requested a Showing', 66],
	['Requested CMA', 162],
	['Requested Financing Options', 164],
	['Requested Home Evaluation', 47],
	['Requested to Sell a House', 46],
	['Saved a Listing', 9],
	['Saved a Search', 27],
	['Saved Search (App)', 140],
	['Searched', 10],
	['Searched a Home (New Homes)', 50],
	['Searched (App)', 137],
	['Showing Request (App)', 139],
	['Submitted a Form', 167],
	['Used Mortgage Calculator', 89],
	['Viewed a Listing', 11],
	['Viewed CMA', 168],
];
/** Types that Lofty also delivers by SMS and email. */
const SMS_EMAIL = new Set([11, 48, 138, 9, 52, 136, 27, 140, 89, 166]);
const LEFT_A_MESSAGE = 65;

export const opportunity: ResourceDef = {
	value: 'opportunity',
	name: 'Opportunity',
	description: 'Opportunity alerts',
	operations: [
		{
			value: 'sendAlert',
			name: 'Send Alert',
			action: "Alert a lead's agent to its activity",
			description: "Alert the lead's agent that the lead did something (viewed a listing, saved a search, asked for a CMA...)",
			notice: 'Every run sends another alert: Lofty does not deduplicate them.',
			errorHints: {
				'20005': 'Lofty had an internal error while sending the alert. Try again later; since alerts are not deduplicated, check the agent did not already get it.',
			},
			method: 'POST',
			effect: 'sends',
			path: '/v1.0/agent/send-notification',
			params: [
				{ ...leadInPath, in: 'body', description: 'A lead of your team: pick it from the list, or give its ID or its Lofty URL' },
				{
					name: 'notificationType',
					label: 'Activity',
					type: 'options',
					in: 'body',
					required: true,
					options: [...TYPES].sort((a, b) => a[0].localeCompare(b[0])).map(([name, value]) => ({ name, value, description: SMS_EMAIL.has(value) ? `Code ${value}; also sent by SMS and email` : `Code ${value}; app notification` })),
					default: 11,
					description: 'What the lead did; some activities also reach the agent by SMS and email',
				},
				{
					name: 'description',
					label: 'Details Text',
					type: 'string',
					in: 'body',
					placeholder: 'e.g. 123 Main St, San Francisco, CA 94102',
					description: 'Shown in the alert together with Details Link; set both or neither',
				},
				{
					name: 'link',
					label: 'Details Link',
					type: 'string',
					in: 'body',
					placeholder: 'e.g. https://example.com/listing/123',
					description: 'Listing, search or CMA URL shown with Details Text; set both or neither',
				},
				{
					name: 'message',
					label: 'Message',
					type: 'string',
					in: 'body',
					description: 'The message the lead left; only shown for the activity "Left a Message"',
				},
			],
			validate(op) {
				const { description, link, message, notificationType } = op.values;
				// Lofty renders the details block only when both are non-empty.
				if ((description === undefined) !== (link === undefined)) {
					throw new InvalidValue(description === undefined ? 'Details Text' : 'Details Link', 'is needed too: Lofty shows the details only when Details Text and Details Link are both set');
				}
				if (message !== undefined && Number(notificationType) !== LEFT_A_MESSAGE) {
					throw new InvalidValue('Message', 'is only shown for the activity "Left a Message" (65); Lofty ignores it for other activities');
				}
			},
			// {status: {code, msg}, data: true|false}: data is a best-effort hint, not a delivery receipt.
			output: (response, op) => {
				const body = (response ?? {}) as IDataObject;
				const dispatched = body.data === true || body.data === 'true';
				const out: IDataObject = { leadId: op.values.leadId as string, notificationType: op.values.notificationType as number, dispatched };
				if (!dispatched) {
					out.note =
						'Lofty did not confirm the alert. Usually the lead does not exist or is not in your team, or has no assigned agent. For a lead in a lead pond the alert is still broadcast to the pond members although Lofty reports false.';
				}
				return out;
			},
		},
	],
};
