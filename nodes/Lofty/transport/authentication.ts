import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/**
 * The Lofty node's Authentication before a credential is chosen: it reads as the API key (request.ts sends every value
 * but `oAuth2` with the API key), and it is not an option, so that choosing a credential (by hand, or the editor
 * picking one by itself once it has fetched the list) always changes the value. That change is what makes n8n's
 * Custom Fields mapper ask for its list again (its loadOptionsDependsOn): n8n does not ask again when only the
 * credential changes, and the mapper first asks when the panel opens, before a credential picked late is set.
 */
export const AUTHENTICATION_NOT_CHOSEN = 'apiKeyNotChosen';

/** The credential choice every Lofty node offers: an API key or OAuth2 (see CREDENTIAL_TYPES in request.ts). */
export const LOFTY_CREDENTIALS: INodeCredentialDescription[] = [
	{ name: 'loftyApi', required: true, displayOptions: { show: { authentication: ['apiKey', AUTHENTICATION_NOT_CHOSEN] } } },
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

/** The Lofty node's Authentication (the triggers have no list that waits for the credential: they keep 'apiKey'). */
export const AUTHENTICATION_PROPERTY_UNTIL_CHOSEN: INodeProperties = { ...AUTHENTICATION_PROPERTY, default: AUTHENTICATION_NOT_CHOSEN };
