/**
 * The credentials the try-out (scripts/start.js) imports into n8n, each only when it changed: the Lofty API
 * credential (API key) and n8n's Bearer Auth credential for the sandbox's tool server (MCP), and one Lofty OAuth2
 * credential per grant type for the sandbox's demo app. Plain text only in a temp file; n8n encrypts on import.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { CREDENTIAL, MCP_CREDENTIAL, OAUTH_CREDENTIALS, sha } = require('./config');
const { log } = require('./logs');
const { writeState } = require('./folder');

/** The Lofty API credential (the sandbox's API key and URL) and the tool server's Bearer Auth credential. */
async function importApiCredentials({ n8n, inputDir, sandbox, state }) {
	const cred = [
		{ ...CREDENTIAL, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
		{ ...MCP_CREDENTIAL, data: { token: sandbox.apiKey } },
	];
	const credText = JSON.stringify(cred, null, 2);
	if (state.imports.credential !== sha(credText)) {
		const f = path.join(inputDir, 'credentials.json');
		fs.writeFileSync(f, credText); // plain text only in a temp file; n8n encrypts it on import
		await n8n(['import:credentials', `--input=${f}`]);
		state.imports.credential = sha(credText);
		writeState(state);
	}
}

/** The OAuth2 credentials of OAUTH_CREDENTIALS, imported when they changed (the sandbox's port, or new ones). */
async function importOAuthCredentials({ n8n, inputDir, sandbox, state }) {
	const { clientId, clientSecret, authUrl, tokenUrl } = sandbox.oauth;
	if (!clientId || !clientSecret) return log('warning: the sandbox printed no OAuth client: OAuth2 credentials not made');
	const creds = OAUTH_CREDENTIALS.map(({ grantType, ...c }) => ({
		...c,
		type: 'loftyOAuth2Api',
		data: {
			grantType,
			clientId,
			...(grantType === 'pkce' ? {} : { clientSecret, authentication: 'header' }),
			...(grantType === 'clientCredentials' ? { customerApiKey: sandbox.apiKey } : { authUrl }),
			accessTokenUrl: tokenUrl,
			baseUrl: sandbox.url,
		},
	}));
	const text = JSON.stringify(creds, null, 2);
	if (state.imports.oauthCredentials === sha(text)) return;
	const f = path.join(inputDir, 'oauth-credentials.json');
	fs.writeFileSync(f, text); // plain text only in a temp file; n8n encrypts it on import
	await n8n(['import:credentials', `--input=${f}`]);
	state.imports.oauthCredentials = sha(text);
	writeState(state);
}

module.exports = { importApiCredentials, importOAuthCredentials };
