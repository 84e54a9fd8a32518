/**
 * The try-out's settings (scripts/start.js, `npm start`): its command-line flags, folders, the package's node
 * files, the credentials it makes, the n8n owner login and the examples it publishes. See start.js for the
 * flags and environment variables.
 */
'use strict';

const crypto = require('crypto');
const path = require('path');
const H = require('../n8n-harness');

const ROOT = H.ROOT;
const ARGS = new Set(process.argv.slice(2));
const VERIFY = ARGS.has('--verify');
const VERBOSE = ARGS.has('--verbose');
const N8N_VERSION = process.env.LOFTY_N8N_VERSION || '2.41.1';
const DIR = path.resolve(process.env.LOFTY_TRYOUT_DIR || path.join(ROOT, '.tryout'));
const USER_FOLDER = DIR; // n8n keeps its data in <DIR>/.n8n
const N8N_DIR = path.join(USER_FOLDER, '.n8n');
const LOG_DIR = path.join(DIR, 'logs');
const STATE_FILE = path.join(DIR, 'state.json');
const PID_FILE = path.join(DIR, 'start.pid');
const EXAMPLES_DIR = path.join(ROOT, 'examples');

const PKG = H.readPackageJson();
const NODE_FILE = 'dist/nodes/Lofty/Lofty.node.js';
const TRIGGER_FILE = 'dist/nodes/LoftyTrigger/LoftyTrigger.node.js';
const TRIGGER_TYPE = `${PKG.name}.loftyTrigger`;
const CREDENTIAL = { id: 'LoftySandboxCred', name: 'Lofty API (sandbox)', type: 'loftyApi' };
/** n8n's own Bearer Auth credential for the sandbox's tool server (MCP), the only kind n8n's MCP Client Tool takes. */
const MCP_CREDENTIAL = { id: 'LoftyToolServerCred', name: 'Lofty tool server (sandbox, Bearer)', type: 'httpBearerAuth' };
const MCP_PATH = '/mcp';
/**
 * OAuth2 credentials made ready for the sandbox's demo app, one per grant type, named for it (n8n would name each
 * new one "Lofty account", "Lofty account 2", ...). Client Credentials works at once; the other two need Connect.
 */
const OAUTH_CREDENTIALS = [
	{ id: 'LoftySandboxOAuthCC', name: 'Lofty OAuth2 (sandbox): Client Credentials', grantType: 'clientCredentials' },
	{ id: 'LoftySandboxOAuthCode', name: 'Lofty OAuth2 (sandbox): Authorization Code', grantType: 'authorizationCode' },
	{ id: 'LoftySandboxOAuthPkce', name: 'Lofty OAuth2 (sandbox): PKCE', grantType: 'pkce' },
];
/** The sandbox keeps the subscriptions n8n made in this file, so published triggers still fire after a restart. */
const WEBHOOKS_FILE = path.join(DIR, 'sandbox-webhooks.json');
/** The sandbox counts its starts in this file: new records never get an ID an earlier start handed out. */
const IDS_FILE = path.join(DIR, 'sandbox-ids.json');
const OWNER = {
	email: process.env.LOFTY_TRYOUT_EMAIL || 'demo@example.com',
	password: process.env.LOFTY_TRYOUT_PASSWORD || 'LoftyDemo1',
	firstName: 'Demo',
	lastName: 'Owner',
};
/** Examples published at start (their trigger is live): the web-form webhook and the Lofty MCP server. */
const PUBLISH = new Set(['LoftyExample0001', 'LoftyExampleMcpSrv']);
const WEBHOOK_PATH = 'lofty-lead-intake';

function sha(text) {
	return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

module.exports = {
	ROOT,
	ARGS,
	VERIFY,
	VERBOSE,
	N8N_VERSION,
	DIR,
	USER_FOLDER,
	N8N_DIR,
	LOG_DIR,
	STATE_FILE,
	PID_FILE,
	EXAMPLES_DIR,
	PKG,
	NODE_FILE,
	TRIGGER_FILE,
	TRIGGER_TYPE,
	CREDENTIAL,
	MCP_CREDENTIAL,
	MCP_PATH,
	OAUTH_CREDENTIALS,
	WEBHOOKS_FILE,
	IDS_FILE,
	OWNER,
	PUBLISH,
	WEBHOOK_PATH,
	sha,
};
