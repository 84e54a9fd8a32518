import type { ICredentialDataDecryptedObject, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { CREDENTIAL_TYPES, credentialType } from '../Lofty/transport/request';

/**
 * The context a backlog reader (backlogReader.ts) sends its requests with, once the poll that started it (or last
 * took from it) has returned.
 *
 * n8n signs a request of the API-key credential by evaluating the credential's `authenticate` template
 * (`token {{$credentials.apiKey}}`) with the workflow's expression engine. n8n 2.41 (and 1.123) evaluates
 * expressions in an isolate that it takes for a poll just before the poll runs and gives back when it returns: a
 * request of the poll's own context sent after that fails before it is sent ("No bridge acquired for this
 * context"). So the reader's context signs API-key requests itself, with the credential's own template and the
 * credential as the poll read it, and sends them with n8n's plain request helper (its proxy and TLS settings).
 * An OAuth2 credential needs no expression: n8n signs (and refreshes) its token at any time, so the poll's context
 * serves as it is.
 */
export async function readerContext(ctx: IPollFunctions): Promise<IPollFunctions> {
	if (credentialType(ctx) !== CREDENTIAL_TYPES.apiKey) return ctx;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPES.apiKey);
	const headers = signedHeaders(credentials);
	const send = ctx.helpers.httpRequest;
	const helpers = {
		...ctx.helpers,
		httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => await send({ ...options, headers: { ...options.headers, ...headers } }),
	};
	return Object.create(ctx, { helpers: { value: helpers } }) as IPollFunctions;
}

const TEMPLATE = /\{\{\s*\$credentials\.(\w+)\s*\}\}/g;

/** The headers the API-key credential's `authenticate` template gives with `credentials`. */
function signedHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	const { authenticate } = new LoftyApi();
	const out: Record<string, string> = {};
	for (const [name, template] of Object.entries(authenticate.properties.headers ?? {})) {
		const text = String(template).replace(/^=/, '');
		const value = text.replace(TEMPLATE, (_, field: string) => String(credentials[field] ?? ''));
		// Only `{{$credentials.<field>}}` is understood here: anything else would be sent unevaluated.
		if (value.includes('{{')) throw new Error(`The credential's ${name} header is not a plain template: ${text}`);
		out[name] = value;
	}
	return out;
}
