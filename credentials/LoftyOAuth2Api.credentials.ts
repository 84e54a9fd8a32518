import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { connectionProperties, meTestRequest, REJECTED_ACCESS_TOKEN } from './common';

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
				{ name: 'Client Credentials', value: 'clientCredentials' },
			],
			default: 'authorizationCode',
			description:
				'Use PKCE for apps registered without a client secret. Client Credentials is server to server: no browser step, the workflow acts as the Lofty user whose API key you enter.',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'string',
			default: 'https://lofty.com/page/vendor-auth.html',
			required: true,
			displayOptions: { show: { grantType: ['authorizationCode', 'pkce'] } },
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'string',
			default: 'https://crm.lofty.com/api/user-web/oauth/token',
			required: true,
			description: 'Some Lofty pages give https://api.lofty.com/oauth/token instead; use it if this one is refused',
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
			// n8n's OAuth2 flow reads `authentication` for the code exchange and for every refresh. PKCE has no
			// secret: n8n then sends the client ID as a form field either way, so the choice is hidden.
			displayName: 'Client Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Header (HTTP Basic)',
					value: 'header',
					description: 'Client ID and secret in the Authorization header, as Lofty documents it',
				},
				{
					name: 'Body',
					value: 'body',
					description: 'Client ID and secret as form fields of the token request (client_id, client_secret)',
				},
			],
			default: 'header',
			description:
				'How n8n sends the client ID and secret when it connects and refreshes tokens. Keep Header; choose Body only if connecting fails with "invalid_client", e.g. behind a proxy that removes the Authorization header.',
			displayOptions: { hide: { grantType: ['pkce'] } },
		},
		{
			displayName: 'Customer Key',
			name: 'customerApiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { grantType: ['clientCredentials'] } },
			description:
				'The API key of the Lofty user the workflow acts as (that user finds it in Lofty: Settings > Integrations > API). n8n sends it as customer_key when it asks Lofty for a token; the token has your app\'s scopes.',
			// In view under the field, not only in the tooltip: what to paste, and what a wrong one looks like.
			hint: 'The API key of the Lofty user this workflow acts as: in Lofty, Settings > Integrations > API. A wrong key fails the test with "The provided authorization grant ... is invalid". n8n keeps the token of the previous key when you save: nodes then refuse to run until it expires. To switch users at once, create a new credential.',
		},
		{
			// n8n's client-credentials request adds these form fields (all supported n8n lines); computed so the
			// key is typed once, as a password field, and never shown as JSON.
			displayName: 'Additional Body Properties',
			name: 'additionalBodyProperties',
			type: 'hidden',
			default: '={{ $self["customerApiKey"] ? JSON.stringify({ customer_key: $self["customerApiKey"] }) : "" }}',
			displayOptions: { show: { grantType: ['clientCredentials'] } },
		},
		{
			// n8n's own switch for the field above (it shows only with Body authentication); ours is always on.
			displayName: 'Send Additional Body Properties',
			name: 'sendAdditionalBodyProperties',
			type: 'hidden',
			default: true,
			displayOptions: { show: { grantType: ['clientCredentials'] } },
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
		...connectionProperties,
	];

	// n8n signs node requests itself; this definition lets the credential test send the token too.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.oauthTokenData.access_token}}' } },
	};

	test: ICredentialTestRequest = meTestRequest([
		{
			type: 'responseCode',
			properties: { value: 401, message: REJECTED_ACCESS_TOKEN },
		},
		{
			type: 'responseCode',
			properties: {
				value: 403,
				message: "The app is not granted GET /v1.0/me. Add it to the app's scopes in Lofty's developer portal and reconnect.",
			},
		},
	]);
}
