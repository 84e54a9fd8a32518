import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class LoftyApi implements ICredentialType {
	name = 'loftyApi';

	displayName = 'Lofty API';

	icon: Icon = { light: 'file:../icons/lofty.svg', dark: 'file:../icons/lofty.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-api-key';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Your personal Lofty API key, from Lofty: Settings > Integrations > API',
		},
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

	// Lofty expects API keys with the "token" scheme; "Bearer" is for OAuth tokens only.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=token {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1.0/me',
			headers: { 'Content-Type': 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'Lofty rejected the API key (401). Copy it again from Lofty: Settings > Integrations > API.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 400,
					message: 'Lofty did not accept this key (400). Make sure it is an API key, not an OAuth token.',
				},
			},
		],
	};
}
