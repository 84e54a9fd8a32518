import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class LoftyOAuth2Api implements ICredentialType {
	name = 'loftyOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Lofty OAuth2 API';

	icon: Icon = { light: 'file:../icons/lofty.svg', dark: 'file:../icons/lofty.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-oauth2';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'options',
			options: [
				{ name: 'Authorization Code', value: 'authorizationCode' },
				{ name: 'Authorization Code with PKCE', value: 'pkce' },
			],
			default: 'authorizationCode',
			description: 'Use PKCE for apps registered without a client secret',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'string',
			default: 'https://lofty.com/page/vendor-auth.html',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'string',
			default: 'https://crm.lofty.com/api/user-web/oauth/token',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			// Required for Authorization Code; hidden (and so not enforced) for PKCE, which has no secret.
			required: true,
			displayOptions: { hide: { grantType: ['pkce'] } },
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			// Lofty's authorize page reads `clientId`, not the standard `client_id`.
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '={{"clientId=" + encodeURIComponent($self["clientId"])}}',
		},
		{
			// Authorization Code sends id and secret as HTTP Basic; PKCE has no secret and sends the id in the form.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
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

	// n8n signs node requests itself; this definition lets the credential test send the token too.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.oauthTokenData.access_token}}' } },
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
				properties: { value: 401, message: 'Lofty rejected the access token (401). Reconnect the credential.' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: "The app is not granted GET /v1.0/me. Add it to the app's scopes in Lofty's developer portal and reconnect.",
				},
			},
		],
	};
}
