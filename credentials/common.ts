import type { ICredentialTestRequest, INodeProperties } from 'n8n-workflow';

/** Fields both Lofty credentials share: where Lofty is, and how fast to call it. */
/** What a person reads when Lofty rejects the credential: in the credential test and when a node runs. */
export const REJECTED_API_KEY = 'Lofty rejected the API key (401). Copy it again from Lofty: Settings > Integrations > API.';
export const REJECTED_ACCESS_TOKEN =
	"Lofty rejected the access token (401). Reconnect the credential: open it and click Connect again (in Lofty's developer portal the app must still be active).";

export const connectionProperties: INodeProperties[] = [
	{
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: 'https://api.lofty.com',
		description: 'Leave as is for Lofty. Change it only to use a sandbox or a proxy.',
	},
	{
		displayName: 'Rate Limit',
		name: 'rateLimit',
		type: 'options',
		options: [
			{
				name: 'Automatic (Follow Lofty)',
				value: 'auto',
				description: "Pace requests by the limit Lofty announces on every answer (X-RateLimit headers)",
			},
			{ name: 'Development App (100 per Minute)', value: 'development', description: 'Also never send more than 100 requests a minute' },
			{ name: 'Production App (500 per Minute)', value: 'production', description: 'Also never send more than 500 requests a minute' },
			{ name: 'Custom', value: 'custom', description: 'Also never send more than a number of requests a minute that you choose' },
		],
		default: 'auto',
		description:
			"Lofty limits each app to 100 requests a minute in Development and 500 in Production. Requests made with this credential are paced to stay within that limit, across all items and workflows of this n8n, so bulk jobs finish without errors. Choose a cap to leave room for other tools using the same app.",
	},
	{
		displayName: 'Requests per Minute',
		name: 'requestsPerMinute',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 100,
		displayOptions: { show: { rateLimit: ['custom'] } },
		description: 'The most requests this n8n sends with this credential in any minute',
	},
];

/** Both credentials test themselves with `GET /v1.0/me`; `rules` word the failures for each kind of secret. */
export function meTestRequest(rules: ICredentialTestRequest['rules']): ICredentialTestRequest {
	return {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1.0/me',
			headers: { 'Content-Type': 'application/json' },
		},
		rules,
	};
}
