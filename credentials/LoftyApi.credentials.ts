import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { connectionProperties, meTestRequest, REJECTED_API_KEY } from './common';

export class LoftyApi implements ICredentialType {
	name = 'loftyApi';

	displayName = 'Lofty API';

	icon: Icon = { light: 'file:../icons/lofty.svg', dark: 'file:../icons/lofty.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-api-key';

	properties: INodeProperties[] = [
		{
			// In view, not only in the field's tooltip: the first thing a person needs here.
			displayName: 'Your API key is in Lofty under <b>Settings > Integrations > API</b>: copy it there and paste it below.',
			name: 'whereNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Your personal Lofty API key, from Lofty: Settings > Integrations > API',
		},
		...connectionProperties,
	];

	// Lofty expects API keys with the "token" scheme; "Bearer" is for OAuth tokens only.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=token {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = meTestRequest([
		{
			type: 'responseCode',
			properties: {
				value: 401,
				message: REJECTED_API_KEY,
			},
		},
		{
			type: 'responseCode',
			properties: {
				value: 400,
				message: 'Lofty did not accept this key (400). Make sure it is an API key, not an OAuth token.',
			},
		},
	]);
}
