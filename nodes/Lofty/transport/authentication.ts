import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/** The credential choice every Lofty node offers: an API key or OAuth2 (see CREDENTIAL_TYPES in request.ts). */
export const LOFTY_CREDENTIALS: INodeCredentialDescription[] = [
	{ name: 'loftyApi', required: true, displayOptions: { show: { authentication: ['apiKey'] } } },
	{ name: 'loftyOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
];

export const AUTHENTICATION_PROPERTY: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
};
