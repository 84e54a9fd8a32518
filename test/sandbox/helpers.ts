/** Shared helpers of the sandbox tests: an axios client that keeps the raw text and parses it losslessly. */
import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';

import { type Sandbox, startSandbox } from '../../sandbox';
import { parseJson } from '../../sandbox/core/json';

export interface Res {
	status: number;
	headers: Record<string, string>;
	text: string;
	/** lossless parse of the body (integers beyond 2^53 are bigint) */
	body: any;
}

export type Auth = { token?: string; bearer?: string; raw?: string } | undefined;

function authHeader(auth: Auth): Record<string, string> {
	if (!auth) return {};
	if (auth.raw !== undefined) return { Authorization: auth.raw };
	if (auth.token !== undefined) return { Authorization: `token ${auth.token}` };
	return { Authorization: `Bearer ${auth.bearer}` };
}

export async function call(
	baseUrl: string,
	method: string,
	path: string,
	opts: { auth?: Auth; body?: unknown; rawBody?: string; headers?: Record<string, string>; params?: Record<string, unknown> } = {},
): Promise<Res> {
	const headers: Record<string, string> = { ...authHeader(opts.auth), ...(opts.headers ?? {}) };
	let data: string | undefined;
	if (opts.rawBody !== undefined) data = opts.rawBody;
	else if (opts.body !== undefined) {
		data = JSON.stringify(opts.body);
		headers['Content-Type'] ??= 'application/json';
	}
	const config: AxiosRequestConfig = {
		method,
		url: baseUrl + path,
		headers,
		data,
		params: opts.params,
		responseType: 'text',
		transformResponse: [(d: unknown) => d],
		validateStatus: () => true,
		maxRedirects: 0,
	};
	const r: AxiosResponse<string> = await axios.request(config);
	let body: unknown = undefined;
	if (typeof r.data === 'string' && r.data.length && String(r.headers['content-type'] ?? '').includes('json')) body = parseJson(r.data);
	const hdrs: Record<string, string> = {};
	for (const [k, v] of Object.entries(r.headers)) hdrs[k.toLowerCase()] = String(v);
	return { status: r.status, headers: hdrs, text: r.data, body };
}

/** Bound helper: `api.get(path, opts)` with the demo API key unless `auth` is given (use `auth: undefined` explicitly via `noAuth`). */
export function client(baseUrl: string, defaultAuth: Auth) {
	const go = (method: string) => (path: string, opts: Parameters<typeof call>[3] & { noAuth?: boolean } = {}) =>
		call(baseUrl, method, path, { ...opts, auth: opts.noAuth ? undefined : (opts.auth ?? defaultAuth) });
	return { get: go('GET'), post: go('POST'), put: go('PUT'), delete: go('DELETE') };
}

/** Digits of a bigint / number / string id. */
export const s = (v: unknown): string => String(v);

/**
 * One sandbox for the test file, on a free loopback port: started before its tests, stopped after them, and reset
 * to its seed before each test unless `reset: false`. Returns the running sandbox (a stand-in that forwards to it).
 */
export function useSandbox(options: { reset?: boolean } = {}): Sandbox {
	let started: Sandbox | undefined;
	beforeAll(async () => {
		started = await startSandbox({ port: 0 });
	});
	afterAll(() => started?.stop());
	if (options.reset !== false) beforeEach(() => started?.reset());
	return new Proxy({} as Sandbox, {
		get(_target, key) {
			if (!started) throw new Error('the sandbox starts in beforeAll: use it inside a test or hook');
			const value: unknown = Reflect.get(started, key);
			return typeof value === 'function' ? value.bind(started) : value;
		},
	});
}
