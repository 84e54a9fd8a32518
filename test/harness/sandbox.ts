import type { Sandbox } from '../../sandbox';
import { parseJson, startSandbox } from '../../sandbox';
import type { IDataObject } from 'n8n-workflow';
import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { forgetRecentLeads } from '../../nodes/Lofty/resources/lead/keys';
import { forgetUncertainCreates } from '../../nodes/Lofty/resources/lead/uncertainCreates';
import { forgetBacklogReaders } from '../../nodes/LoftyPollingTrigger/backlogReader';
import type { Credential, HarnessOptions, Params } from './context';
import { runNode } from './context';
import { recordRequests } from './opsLog';

/** Starts one sandbox for a test file, with fresh seed data before every test. */
export function useSandbox(): () => Sandbox {
	let sandbox: Sandbox | undefined;
	let writeRequests = () => {};
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		writeRequests = recordRequests(sandbox);
	});
	beforeEach(() => {
		sandbox?.reset();
		// A reset sandbox hands out the same lead IDs again: leads remembered from the last test are not these.
		forgetRecentLeads();
		forgetUncertainCreates();
		// A lead backlog reader of the last test's polling trigger stops reading.
		forgetBacklogReaders();
	});
	afterAll(async () => {
		forgetBacklogReaders();
		writeRequests();
		await sandbox?.stop();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

export function apiKeyCredential(sandbox: Sandbox, apiKey = sandbox.apiKey): Credential {
	return { type: 'loftyApi', data: { apiKey, baseUrl: sandbox.url } };
}

export function oauthCredential(sandbox: Sandbox, accessToken: string): Credential {
	return { type: 'loftyOAuth2Api', data: { baseUrl: sandbox.url, oauthTokenData: { access_token: accessToken } } };
}

export const node = new Lofty();

/** Runs the Lofty node with the demo API key unless another credential is given. */
export async function run(sandbox: Sandbox, params: Params | ((i: number) => Params), extra: Partial<HarnessOptions> = {}) {
	const credential = extra.credential ?? apiKeyCredential(sandbox);
	const authentication = credential.type === 'loftyOAuth2Api' ? 'oAuth2' : 'apiKey';
	const withAuth = typeof params === 'function' ? (i: number) => ({ authentication, ...params(i) }) : { authentication, ...params };
	return await runNode(node, { ...extra, params: withAuth, credential });
}

/** The error a run throws, for asserting on what the user would read. */
export async function runError(...args: Parameters<typeof run>): Promise<Error & { description?: string; context?: { itemIndex?: number }; httpCode?: string }> {
	try {
		await run(...args);
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected the node to fail, but it succeeded');
}

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Creates a lead over HTTP with the sandbox's clock at `at` (Lofty's create time); its ID as Lofty answers it. */
export async function createLeadAt(sandbox: Sandbox, firstName: string, at: number): Promise<string> {
	const clock = sandbox.store.now;
	sandbox.store.now = () => at;
	try {
		const r = await fetch(`${sandbox.url}/v1.0/leads`, {
			method: 'POST',
			headers: { authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ firstName }),
		});
		return String((parseJson(await r.text()) as IDataObject).leadId);
	} finally {
		sandbox.store.now = clock;
	}
}
