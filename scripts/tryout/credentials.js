/**
 * The credentials the try-out (scripts/start.js) imports into n8n, each only when it changed: one Lofty OAuth2
 * credential per grant type for the sandbox's demo app, then the Lofty API credential (API key) and n8n's Bearer Auth
 * credential for the sandbox's tool server (MCP). Plain text only in a temp file; n8n encrypts on import.
 *
 * Order matters: n8n's editor preselects, for a new Lofty node, the credential updated most recently among those the
 * node takes. The API key works at once (Authorization Code and PKCE need Connect first), so it is imported last,
 * and again whenever the OAuth2 credentials were.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { CREDENTIAL, MCP_CREDENTIAL, OAUTH_CREDENTIALS, sha } = require('./config');
const { log } = require('./logs');
const { writeState } = require('./folder');

/** The OAuth2 credentials of OAUTH_CREDENTIALS for the sandbox's demo app (empty when it printed none). */
function oauthCredentials(sandbox) {
	const { clientId, clientSecret, authUrl, tokenUrl } = sandbox.oauth;
	if (!clientId || !clientSecret) return [];
	return OAUTH_CREDENTIALS.map(({ grantType, ...c }) => ({
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
}

/** The Lofty API credential (the sandbox's API key and URL) and the tool server's Bearer Auth credential. */
function apiCredentials(sandbox) {
	return [
		{ ...CREDENTIAL, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
		{ ...MCP_CREDENTIAL, data: { token: sandbox.apiKey } },
	];
}

/**
 * Imports `creds` when their text (with `after`, what was imported before them) changed since the last run, stamped
 * updated now (n8n's import keeps a stored credential's update time unless the file gives one).
 */
async function importWhenChanged({ n8n, inputDir, state }, key, file, creds, after = '') {
	const fingerprint = sha(JSON.stringify(creds, null, 2) + after);
	if (state.imports[key] === fingerprint) return fingerprint;
	const f = path.join(inputDir, file);
	const updatedAt = new Date().toISOString();
	// plain text only in a temp file; n8n encrypts it on import
	fs.writeFileSync(f, JSON.stringify(creds.map((c) => ({ ...c, updatedAt })), null, 2));
	await n8n(['import:credentials', `--input=${f}`]);
	state.imports[key] = fingerprint;
	writeState(state);
	return fingerprint;
}

/** The OAuth2 credentials, then the API key credential last (see above). */
async function importCredentials({ n8n, inputDir, sandbox, state }) {
	const oauth = oauthCredentials(sandbox);
	if (!oauth.length) log('warning: the sandbox printed no OAuth client: OAuth2 credentials not made');
	const oauthDone = oauth.length ? await importWhenChanged({ n8n, inputDir, state }, 'oauthCredentials', 'oauth-credentials.json', oauth) : '';
	await importWhenChanged({ n8n, inputDir, state }, 'credential', 'credentials.json', apiCredentials(sandbox), oauthDone);
}

module.exports = { importCredentials, oauthCredentials, apiCredentials };
