/**
 * What the sandbox prints for the try-out (scripts/start.js) besides its URL and API key (those are read by
 * scripts/harness/sandbox.js): the try-out page, the OAuth demo app, the webhook subscriptions it kept.
 */
'use strict';

/** What the sandbox printed besides URL and key: the try-out page, the OAuth app, the subscriptions it kept. */
function sandboxExtras(output) {
	const value = (name) => output.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1]?.trim();
	return {
		page: value('LOFTY_SANDBOX_PAGE'),
		oauth: {
			clientId: value('LOFTY_OAUTH_CLIENT_ID'),
			clientSecret: value('LOFTY_OAUTH_CLIENT_SECRET'),
			authUrl: value('LOFTY_OAUTH_AUTHORIZE_URL'),
			tokenUrl: value('LOFTY_OAUTH_TOKEN_URL'),
		},
		webhooksKept: value('LOFTY_SANDBOX_WEBHOOKS_KEPT'),
	};
}

module.exports = { sandboxExtras };
