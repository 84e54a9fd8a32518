import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { connectionProperties, meTestRequest } from './common';

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
			properties: { value: 401, message: 'Lofty rejected the access token (401). Reconnect the credential.' },
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
