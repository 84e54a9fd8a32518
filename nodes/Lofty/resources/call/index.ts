import type { IDataObject } from 'n8n-workflow';

import { BINARY_PROPERTY, FILE_NAME } from '../../model/download';
import type { ParamDef, ResourceDef } from '../../model/types';
import { CALL_SIMPLE_FIELDS } from '../communication';
import { leadInPath } from '../lead';

const callId: ParamDef = {
	name: 'callId',
	label: 'Call ID',
	type: 'id',
	in: 'path',
	required: true,
	placeholder: 'e.g. 563172647619608',
	description: 'ID of the call: the "id" of a call from Get Many, or the "callId" of a Lofty Call webhook',
};

/** The link in an answer of GET /v1.0/call/url/{callId} (`{calls: {id, url}}`), '' when the call was not recorded. */
function recordingLink(response: unknown): { record: IDataObject; url: string } {
	const inner = (response as IDataObject | undefined)?.calls;
	const record = (inner && typeof inner === 'object' ? inner : response ?? {}) as IDataObject;
	return { record, url: typeof record.url === 'string' ? record.url.trim() : '' };
}

const LEAD_GONE =
	'The lead of this call does not exist any more (it may have been deleted or moved to the trash). Check the lead ID.';
const NO_ACCESS =
	'Lofty gives this answer when the call does not exist or its lead is not yours, assigned to you or shared with you (it does not say which). Check the ID, or use a credential of the lead\'s agent.';

const callHints: Record<string, string> = {
	LEAD_NOT_FOUND: LEAD_GONE,
	'20006': LEAD_GONE,
	PERMISSION_DENIED: NO_ACCESS,
	'20017': NO_ACCESS,
};

export const call: ResourceDef = {
	value: 'call',
	name: 'Call',
	description: 'Calls and their recordings',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the calls of a lead (dialer and logged)',
			description: 'Calls with a lead (dialer and logged), with duration, outcome and notes',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/calls',
			pagination: { style: 'offset', itemsKey: 'calls', totalKey: '_metadata.total', maxPageSize: 100 },
			params: [{ ...leadInPath, in: 'query', description: 'The lead whose calls to return: pick it from the list, or give its ID or its Lofty URL' }],
			simplify: CALL_SIMPLE_FIELDS,
			errorHints: {
				...callHints,
				LEAD_NOT_FOUND: 'The lead does not exist or is in the trash. Check the lead ID.',
				'20006': 'The lead does not exist or is in the trash. Check the lead ID.',
				PERMISSION_DENIED: 'Your user may not see this lead\'s calls: the lead must be yours, assigned to you or shared with you.',
				'20017': 'Your user may not see this lead\'s calls: the lead must be yours, assigned to you or shared with you.',
				LIMIT_NOT_VALID: 'Lofty accepts at most 100 calls per page; the node pages by itself, so this points to a changed Lofty limit. Report it to the node\'s maintainers.',
			},
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a call by call ID',
			description: 'One call by its call ID (as Get Many gives it), with duration, outcome, recording flag and notes; for a communication ID (from the communication history) use Get By Communication ID (a Call webhook timelineId is one)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/calls/{callId}',
			params: [callId],
			unwrap: 'calls',
			simplify: CALL_SIMPLE_FIELDS,
			errorHints: callHints,
		},
		{
			value: 'getRecordingUrl',
			name: 'Get Recording URL',
			action: 'Get a temporary link to the recording of a call',
			description: 'A temporary download link (valid for 1 hour) for the audio recording of a call',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/call/url/{callId}',
			params: [callId],
			errorHints: callHints,
			output(response) {
				const { record, url } = recordingLink(response);
				// Lofty answers an empty URL when the call was not recorded: say so in plain words.
				return { ...record, url, hasRecording: url !== '' };
			},
		},
		{
			value: 'downloadRecording',
			name: 'Download Recording',
			action: 'Download the recording of a call as an audio file',
			description: 'The audio recording of a call as a file (binary data), to transcribe, store or attach; the temporary link is fetched and used at once',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/call/url/{callId}',
			params: [
				callId,
				{
					name: BINARY_PROPERTY,
					label: 'Put Output File in Field',
					type: 'string',
					in: 'local',
					required: true,
					default: 'data',
					hint: 'The name of the output binary field to put the file in',
				},
				{
					name: FILE_NAME,
					label: 'File Name',
					type: 'string',
					in: 'local',
					maxLength: 200,
					placeholder: 'e.g. call-recording.mp3',
					description: 'Name of the file; without an extension, the file type\'s is added. By default the name the file host gives, else recording-{call ID}.mp3.',
				},
			],
			errorHints: callHints,
			file: {
				kind: 'audio/',
				link: (response) => recordingLink(response).url,
				subject: (values) => `the recording of call ${String(values.callId)}`,
				missing: (values) => `Call ${String(values.callId)} has no recording (it was not recorded or was logged by hand)`,
				missingWhy: 'Lofty gives no recording link for this call. Only dialer calls with recording switched on have one; Call > Get shows "recordingSwitch".',
				fallbackName: (values) => `recording-${String(values.callId)}.mp3`,
				json: (values) => ({ callId: String(values.callId) }),
			},
		},
		{
			value: 'getByCommunicationId',
			name: 'Get By Communication ID',
			action: 'Get a call by communication ID (webhook timelineId)',
			description: 'One call by its communication ID (V2), e.g. the "timelineId" of a Call webhook; the same request as Communication > Get Call, use either',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/communication/call/{communicationId}',
			params: [
				{
					name: 'communicationId',
					label: 'Communication ID',
					type: 'id',
					in: 'path',
					required: true,
					placeholder: 'e.g. 563172647619608',
					description: 'The "timelineId" of a Lofty Call webhook, or the "id" of a call history entry',
				},
			],
			simplify: CALL_SIMPLE_FIELDS,
			errorHints: {
				PERMISSION_DENIED:
					'Lofty gives this one answer, without saying which applies, when the ID is not a call, does not exist, or belongs to a lead your user cannot manage. Use the "timelineId" of a Call webhook (not "callId") or the "id" of a call history entry.',
				'20017':
					'Lofty gives this one answer, without saying which applies, when the ID is not a call, does not exist, or belongs to a lead your user cannot manage. Use the "timelineId" of a Call webhook (not "callId") or the "id" of a call history entry.',
			},
		},
	],
};
