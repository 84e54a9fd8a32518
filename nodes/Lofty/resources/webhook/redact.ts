import type { IDataObject } from 'n8n-workflow';

/**
 * A callback URL as the node shows it: the values of query parameters that carry a secret are replaced by `***`.
 * The Lofty Trigger subscribes `<webhook URL>?token=<secret>` and refuses deliveries without that token, so anyone
 * who saw the whole URL (in an execution, a dropdown, an AI agent's tool output) could forge deliveries.
 */
const SECRET_PARAMS = /([?&](?:token|secret|key|api_?key|access_?token|auth|signature|sig|password|code)=)[^&#]*/gi;

export const REDACTED = '***';

export function redactCallbackUrl(url: unknown): unknown {
	return typeof url === 'string' ? url.replace(SECRET_PARAMS, `$1${REDACTED}`) : url;
}

/**
 * Lofty's answer about subscriptions (a list, one subscription, or either under a key) with every `callbackUrl`
 * redacted; other fields untouched.
 */
export function redactSubscriptions(value: unknown, depth = 0): unknown {
	if (depth > 4 || !value || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((v) => redactSubscriptions(v, depth + 1));
	const out: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		out[key] = (key === 'callbackUrl' ? redactCallbackUrl(inner) : redactSubscriptions(inner, depth + 1)) as IDataObject[string];
	}
	return out;
}
