/**
 * An expired OAuth2 access token, as the two n8n lines the package supports hand it to the node. n8n refreshes
 * the token only when its HTTP helper throws the 401: n8n 2.41 does so for `ignoreHttpStatusErrors:
 * { ignore: true, except: [401] }`; n8n 2.8 reads any truthy value as "ignore every status" and hands the 401
 * back, so the transport sends once more with errors thrown. The helper below is n8n-core's requestOAuth2 in
 * short (sign, send, refresh on a thrown 401, send again); the end-to-end suite runs the real one on both lines.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { type Credential, createContext, send } from '../harness/context';
import { node, oauthCredential, useSandbox } from '../harness/sandbox';
import { observe } from '../secrets/observe';

const sandbox = useSandbox();

type Line = '2.41' | '2.8';

async function runWithN8n(line: Line, credential: Credential, params: IDataObject): Promise<{ items: INodeExecutionData[]; refreshes: number }> {
	let refreshes = 0;
	const context = createContext(node, { params: { authentication: 'oAuth2', ...params }, credential });
	(context.helpers as { httpRequestWithAuthentication: unknown }).httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions) => {
		const asSent = line === '2.8' && options.ignoreHttpStatusErrors ? { ...options, ignoreHttpStatusErrors: true } : options;
		try {
			return await send(credential, asSent);
		} catch (error) {
			if ((error as { response?: { status?: number } }).response?.status !== 401) throw error;
			refreshes++;
			credential.data.oauthTokenData = { access_token: sandbox().issueToken() };
			return await send(credential, asSent);
		}
	};
	const result = (await node.execute!.call(context as IExecuteFunctions)) as INodeExecutionData[][];
	observe('Lofty output', result);
	return { items: result[0], refreshes };
}

function expiredCredential(): Credential {
	const token = sandbox().issueToken();
	sandbox().expireToken(token);
	return oauthCredential(sandbox(), token);
}

describe.each<[Line, number[]]>([
	['2.41', [401, 200]],
	['2.8', [401, 401, 200]],
])('an expired OAuth2 token on n8n %s', (line, statuses) => {
	it('is refreshed by n8n once, and the read passes', async () => {
		const { items, refreshes } = await runWithN8n(line, expiredCredential(), { resource: 'lead', operation: 'get', leadId: { __rl: true, mode: 'id', value: SEED_IDS.bigLeadId } });
		expect(items.map((i) => i.json.leadId)).toEqual([SEED_IDS.bigLeadId]);
		expect(refreshes).toBe(1);
		expect(sandbox().requests.map((r) => r.status)).toEqual(statuses);
	});

	it('a write refused with 401 is applied exactly once after the refresh', async () => {
		const before = sandbox().store.leads.size;
		const { items } = await runWithN8n(line, expiredCredential(), { resource: 'lead', operation: 'create', firstName: 'Refresh', additionalFields: { emails: ['refresh@example.com'] } });
		expect(items).toHaveLength(1);
		expect(sandbox().store.leads.size).toBe(before + 1);
		expect(sandbox().requests.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual(statuses);
	});
});
