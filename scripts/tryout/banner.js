/**
 * The try-out's banner (scripts/start.js), printed once n8n is ready: the editor URL and login, the sandbox,
 * its credentials and tool server, the OAuth2 demo app, the example workflows, a curl for the webhook, the logs.
 */
'use strict';

const path = require('path');
const { N8N_VERSION, OWNER, CREDENTIAL, MCP_CREDENTIAL, MCP_PATH, OAUTH_CREDENTIALS, PUBLISH, WEBHOOK_PATH, LOG_DIR, DIR, VERIFY } = require('./config');
const { t0 } = require('./logs');
const { mcpServerLines } = require('./examples');

function banner({ base, sandbox, examples, skipped }) {
	const secs = ((Date.now() - t0) / 1000).toFixed(1);
	const rel = (p) => path.relative(process.cwd(), p) || p;
	const lines = [
		'',
		`  Lofty try-out is running (n8n ${N8N_VERSION} with n8n-nodes-lofty, Lofty sandbox with demo data), ready in ${secs}s`,
		'',
		`  n8n editor:  ${base}/`,
		`  Login:       email     ${OWNER.email}`,
		`               password  ${OWNER.password}`,
		'',
		`  Sandbox API: ${sandbox.url}  (API key ${sandbox.apiKey})`,
		`  Credential:  "${CREDENTIAL.name}" (Lofty API) already points at the sandbox`,
		`  Tool server: ${sandbox.url}${MCP_PATH}  (MCP, HTTP Streamable; credential "${MCP_CREDENTIAL.name}" is n8n's Bearer Auth with the API key)`,
		...mcpServerLines(base, examples),
		'',
		...(sandbox.page
			? [
					`  Make events: ${sandbox.page}`,
					'               the team\'s leads: change a stage, call (recorded), text, email, add a lead; published',
					'               Lofty Trigger workflows get the events (also after Ctrl-C and npm start again)',
					'',
				]
			: []),
		...(sandbox.oauth?.clientSecret
			? [
					'  OAuth2:      the sandbox\'s demo app, for a Lofty OAuth2 API credential of your own',
					`               Client ID      ${sandbox.oauth.clientId}`,
					`               Client Secret  ${sandbox.oauth.clientSecret}`,
					`               Authorization URL  ${sandbox.oauth.authUrl}`,
					`               Access Token URL   ${sandbox.oauth.tokenUrl}`,
					`               Base URL       ${sandbox.url}    Customer Key (Client Credentials): the API key above`,
					`               Made for you: ${OAUTH_CREDENTIALS.map((c) => `"${c.name}"`).join(', ')}`,
					'               (Client Credentials works at once; open the other two and click Connect)',
					'',
				]
			: []),
		'  Example workflows:',
		...examples.map((e) => `    ${base}/workflow/${e.wf.id}  ${e.wf.name}${PUBLISH.has(e.wf.id) ? '  [active]' : ''}`),
		...skipped.map((s) => `    (not imported: examples/${s.file}, it needs the Lofty Trigger node: ${s.why})`),
		'',
		'  Send a web-form lead to the active webhook workflow:',
		`    curl -X POST ${base}/webhook/${WEBHOOK_PATH} -H 'Content-Type: application/json' \\`,
		`      -d '{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phone":"4155550123","source":"Website"}'`,
		'',
		`  Logs: ${rel(path.join(LOG_DIR, 'n8n.log'))}, ${rel(path.join(LOG_DIR, 'sandbox.log'))}   Data: ${rel(DIR)} (delete it, or --reset, to start over)`,
		VERIFY ? '  --verify: running the examples now, then stopping.' : '  Press Ctrl-C to stop n8n and the sandbox.',
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}

module.exports = { banner };
