/**
 * A thin n8n execution context for tests: node parameters come from the test (defaults from the
 * node's own description), and every HTTP call is really made over loopback with axios, after
 * applying the credential class's own `authenticate` definition. Nothing is stubbed.
 */
import path from 'node:path';
import { Readable } from 'node:stream';

import axios from 'axios';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IBinaryData,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';

import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { observe } from '../secrets/observe';
import { noteSent } from './opsLog';

export type Params = Record<string, unknown>;

export interface Credential {
	type: 'loftyApi' | 'loftyOAuth2Api';
	data: IDataObject;
}

export interface HarnessOptions {
	/** Node parameters, the same for every item or computed per item. */
	params: Params | ((itemIndex: number) => Params);
	credential: Credential;
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** The node version the workflow was saved with (default 1, as workflows made before version 1.1). */
	typeVersion?: number;
	/** The workflow's time zone, as n8n's getTimezone() gives it (default America/New_York, n8n's own default). */
	timezone?: string;
	/** n8n's cancel signal of the execution (getExecutionCancelSignal); none: a line of n8n without it. */
	cancelSignal?: AbortSignal;
}

/** n8n's default GENERIC_TIMEZONE. */
export const DEFAULT_WORKFLOW_TIMEZONE = 'America/New_York';

const CREDENTIAL_CLASSES: Record<string, ICredentialType> = { loftyApi: new LoftyApi(), loftyOAuth2Api: new LoftyOAuth2Api() };

function lookup(source: IDataObject, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], source);
}

/** Evaluates the `={{$credentials.x}}`-style templates of a credential's authenticate block. */
function renderTemplate(template: string, credentials: IDataObject): string {
	const text = template.startsWith('=') ? template.slice(1) : template;
	return text.replace(/\{\{\s*\$credentials\.([\w.]+)\s*\}\}/g, (_, path: string) => String(lookup(credentials, path) ?? ''));
}

export function authenticate(credential: Credential, options: IHttpRequestOptions): IHttpRequestOptions {
	const definition = CREDENTIAL_CLASSES[credential.type].authenticate;
	if (!definition || typeof definition === 'function') throw new Error('credential has no generic authenticate');
	const headers = { ...(options.headers ?? {}) } as IDataObject;
	for (const [name, template] of Object.entries(definition.properties.headers ?? {})) {
		headers[name] = renderTemplate(String(template), credential.data);
	}
	return { ...options, headers };
}

/** One allowed value of a display condition: a plain value, or n8n's `{_cnd: {gte: 1.1}}` form. */
function allows(allowed: unknown, value: unknown): boolean {
	const cnd = (allowed as { _cnd?: Record<string, unknown> } | null)?._cnd;
	if (!cnd) return allowed === value;
	const [op, bound] = Object.entries(cnd)[0];
	const n = Number(value);
	if (op === 'gte') return n >= Number(bound);
	if (op === 'lt') return n < Number(bound);
	if (op === 'eq') return value === bound;
	throw new Error(`harness: display condition ${op} not supported`);
}

function matchesDisplayOptions(property: INodeProperties, params: Params): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(([name, allowed]) => {
		const value = name === '@version' ? currentVersion : name.startsWith('@') ? undefined : (params[name] ?? defaultOf(name, params));
		if (name.startsWith('@') && name !== '@version') return true;
		return (allowed as unknown[]).some((a) => allows(a, value));
	});
}

let currentProperties: INodeProperties[] = [];
let currentVersion = 1;

function defaultOf(name: string, params: Params): unknown {
	const property = currentProperties.find((p) => p.name === name && matchesDisplayOptions(p, params));
	return property?.default;
}

function extractLocator(name: string, value: unknown, params: Params): unknown {
	if (value === null || typeof value !== 'object' || !('__rl' in (value as object) || 'mode' in (value as object))) return value;
	const locator = value as { mode: string; value: string };
	const property = currentProperties.find((p) => p.name === name && matchesDisplayOptions(p, params));
	const mode = property?.modes?.find((m) => m.name === locator.mode);
	const extract = mode?.extractValue;
	if (extract && extract.type === 'regex') {
		const match = new RegExp(extract.regex).exec(locator.value);
		if (!match) throw new Error(`ERROR: ${name}: the value "${locator.value}" does not match the mode's pattern`);
		return match[1];
	}
	return locator.value;
}

/** Performs one request the way n8n's helper would: credential applied, status handling as asked, raw body. */
export async function send(credential: Credential, options: IHttpRequestOptions) {
	return await sendSigned(authenticate(credential, options));
}

/** n8n's plain httpRequest: a request already signed (by n8n-core's OAuth2 helper, say) is sent as it is. */
export async function sendSigned(signed: IHttpRequestOptions) {
	const ignore = signed.ignoreHttpStatusErrors;
	const except = typeof ignore === 'object' && ignore ? ignore.except : [];
	const response = await axios.request({
		method: signed.method ?? 'GET',
		url: signed.url,
		headers: signed.headers as Record<string, string>,
		data: signed.body,
		timeout: signed.timeout,
		responseType: 'arraybuffer',
		transformResponse: (data: unknown) => data,
		validateStatus: (status) => (ignore ? !except.includes(status) : status >= 200 && status < 300),
	});
	const body = Buffer.from(response.data as ArrayBuffer);
	return signed.returnFullResponse ? { body, headers: response.headers, statusCode: response.status } : body;
}

/** What the node handed to prepareBinaryData, oldest first: a stream (the file is not held whole) or a buffer. */
export const binaryInputs: Array<'stream' | 'buffer'> = [];

/** n8n's plain httpRequest (no credential): axios as n8n configures it from the options the node gives. */
async function plainRequest(options: IHttpRequestOptions) {
	const ignore = options.ignoreHttpStatusErrors;
	const response = await axios.request({
		method: options.method ?? 'GET',
		url: options.url,
		headers: (options.headers ?? {}) as Record<string, string>,
		data: options.body,
		timeout: options.timeout,
		responseType: options.encoding ?? 'json',
		validateStatus: (status) => (ignore ? true : status >= 200 && status < 300),
	});
	return options.returnFullResponse ? { body: response.data as unknown, headers: response.headers, statusCode: response.status } : (response.data as unknown);
}

/** n8n's prepareBinaryData in its default (memory) mode: a stream is read whole, the data kept as base64. */
async function prepareBinaryData(data: Buffer | Readable, filePath?: string, mimeType?: string): Promise<IBinaryData> {
	binaryInputs.push(data instanceof Readable ? 'stream' : 'buffer');
	let buffer: Buffer;
	if (data instanceof Readable) {
		const chunks: Buffer[] = [];
		for await (const chunk of data) chunks.push(Buffer.from(chunk as Buffer));
		buffer = Buffer.concat(chunks);
	} else buffer = data;
	const type = mimeType ?? 'text/plain';
	const binary: IBinaryData = { mimeType: type, fileType: type.startsWith('audio/') ? 'audio' : undefined, data: buffer.toString('base64') };
	if (filePath) {
		const parsed = path.parse(filePath);
		binary.fileName = parsed.base;
		if (parsed.ext) binary.fileExtension = parsed.ext.slice(1);
	}
	binary.fileSize = `${(buffer.length / 1000).toFixed(1)} kB`;
	(binary as IBinaryData & { bytes: number }).bytes = buffer.length;
	return binary;
}

/** The contexts runNode ran the node's execute() in: only their requests are noted with an operation. */
const runs = new WeakSet<object>();

/** Builds the context the node's code runs in. */
export function createContext(node: INodeType, options: HarnessOptions): IExecuteFunctions {
	currentProperties = node.description.properties;
	currentVersion = options.typeVersion ?? 1;
	const paramsFor = (itemIndex: number): Params =>
		typeof options.params === 'function' ? options.params(itemIndex) : options.params;
	const items: INodeExecutionData[] = (options.items ?? [{}]).map((json) => ({ json }));
	const nodeInfo: INode = {
		id: 'test-node',
		name: 'Lofty',
		type: 'n8n-nodes-lofty.lofty',
		typeVersion: currentVersion,
		position: [0, 0],
		parameters: {},
		credentials: { [options.credential.type]: { id: '1', name: 'test' } },
	};
	/** Sends one request and, in a run of execute(), notes it with the run's resource and operation (test/harness/opsLog.ts). */
	const noted = async <T>(requestOptions: IHttpRequestOptions, perform: () => Promise<T>): Promise<T> => {
		const params = paramsFor(0);
		const note = (status: number) => {
			if (!runs.has(context)) return;
			const [resource, operation] = ['resource', 'operation'].map((name) => String(params[name] ?? defaultOf(name, params)));
			noteSent({ resource, operation, method: requestOptions.method ?? 'GET', url: String(requestOptions.url), status });
		};
		try {
			const response = await perform();
			note((response as { statusCode?: number } | null)?.statusCode ?? 200);
			return response;
		} catch (error) {
			const status = (error as { response?: { status?: number } }).response?.status;
			if (status !== undefined) note(status);
			throw error;
		}
	};
	const context = {
		getNode: () => nodeInfo,
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		...(options.cancelSignal ? { getExecutionCancelSignal: () => options.cancelSignal } : {}),
		getTimezone: () => options.timezone ?? DEFAULT_WORKFLOW_TIMEZONE,
		getCredentials: async (type: string) => {
			if (type !== options.credential.type) throw new Error(`Node has no credentials of type ${type}`);
			return options.credential.data;
		},
		getNodeParameter(name: string, itemIndex: number, fallback?: unknown, opts?: { extractValue?: boolean }) {
			const params = paramsFor(itemIndex);
			let value = name in params ? params[name] : defaultOf(name, params);
			if (value === undefined) value = fallback;
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			return opts?.extractValue ? extractLocator(name, value, params) : value;
		},
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => await noted(requestOptions, async () => await plainRequest(requestOptions)),
			prepareBinaryData,
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) => {
				if (type !== options.credential.type) throw new Error(`Node has no credentials of type ${type}`);
				return await noted(requestOptions, async () => await send(options.credential, requestOptions));
			},
		},
		// What the node logs is kept only by the secret watch.
		logger: {
			debug: (...args: unknown[]) => observe('Lofty log', args),
			info: (...args: unknown[]) => observe('Lofty log', args),
			warn: (...args: unknown[]) => observe('Lofty log', args),
			error: (...args: unknown[]) => observe('Lofty log', args),
		},
	};
	return context as unknown as IExecuteFunctions;
}

/** Runs the node's execute() for the given parameters and returns its single output; the secret watch sees both. */
export async function runNode(node: INodeType, options: HarnessOptions): Promise<INodeExecutionData[]> {
	const context = createContext(node, options);
	runs.add(context);
	try {
		const result = await node.execute!.call(context);
		observe('Lofty output', result);
		return (result as INodeExecutionData[][])[0];
	} catch (error) {
		observe('Lofty error', error);
		throw error;
	}
}
