import type { INode } from 'n8n-workflow';

import { REJECTED_ACCESS_TOKEN, REJECTED_API_KEY } from '../../credentials/common';
import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { failureMessage, findFailure, toNodeApiError } from '../../nodes/Lofty/transport/errors';
import { rateLimitWaitMs } from '../../nodes/Lofty/transport/request';

const node: INode = { id: '1', name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion: 1, position: [0, 0], parameters: {} };

describe('error mapping', () => {
	it.each([
		['bare JSON string', 400, 'leadId must be greater than 0', undefined, 'leadId must be greater than 0'],
		['{code, message}', 404, { code: 'LEAD_NOT_EXIST', message: 'Lead does not exist' }, 'LEAD_NOT_EXIST', 'Lead does not exist'],
		['{code, message} inside a JSON string', 403, '{"code":"PERMISSION_DENIED","message":"not your lead"}', 'PERMISSION_DENIED', 'not your lead'],
		['{message} only', 429, { message: 'Too Many Requests' }, undefined, 'Too Many Requests'],
		['{errorCode, errorMsg}', 400, { errorCode: 990001, errorMsg: 'bad agent' }, 990001, 'bad agent'],
		['code inside the message', 500, { message: 'BaseApplicationException:errorCode=20005,msg' }, '20005', 'BaseApplicationException:errorCode=20005,msg'],
		['HTTP 200 with a non-zero code', 200, { code: 990105, message: 'agent already deactivated' }, 990105, 'agent already deactivated'],
		['HTTP 200 with a non-zero errorCode', 200, { data: null, errorCode: 1900012, errorMsg: 'no permission' }, 1900012, 'no permission'],
		// docs/api-readings.md, row 11: the OpenAPI's {status: {code, msg}, data} envelope
		['HTTP 200 with a non-zero status.code', 200, { status: { code: 20012, msg: 'no summary for this call' }, data: null }, 20012, 'no summary for this call'],
		['HTTP 200 with a non-zero status.code as text', 200, { status: { code: '20005', message: 'internal error' } }, '20005', 'internal error'],
		// row 14: a bare JSON string that is one of the spec's codes is that code, with the spec's condition as its message
		['a bare code', 400, 'PARAM_EMAIL_MUST_FILL', 'PARAM_EMAIL_MUST_FILL', 'email is required when resolving assignees'],
		['a bare numeric code', 400, '20012', '20012', 'an invalid or missing parameter'],
		['a bare code with spaces around it', 404, ' LEAD_NOT_EXIST ', 'LEAD_NOT_EXIST', 'the lead does not exist or is not accessible'],
		['a bare word that is no code of the spec', 400, 'NOT_A_CODE', undefined, 'NOT_A_CODE'],
	])('reads %s', (_, status, body, code, message) => {
		expect(findFailure(status, body)).toEqual({ httpCode: status, code, message });
	});

	it.each([
		[{ code: 0, message: 'success', data: {} }],
		[{ leadId: '1' }],
		[[{ id: 1 }]],
		[undefined],
		[{ errorCode: null, errorMsg: null, data: { id: 1 } }],
		[{ code: 'OK' }],
		[{ status: { code: 0, msg: 'success' }, data: true }],
		[{ status: 'Completed', id: '1' }],
		[{ status: { code: 'ACTIVE' }, id: '1' }],
		['PERMISSION_DENIED'],
		['ok'],
	])('treats %j with HTTP 200 as success', (body) => {
		expect(findFailure(200, body)).toBeUndefined();
	});

	it('explains a bare code like a {code, message} body, with the operation\'s hint', () => {
		const failure = findFailure(400, 'PARAM_EMAIL_MUST_FILL')!;
		const error = toNodeApiError(node, failure, 0, { PARAM_EMAIL_MUST_FILL: 'Give the lead an email address.' });
		expect(error.message).toBe('Lofty error (HTTP 400 PARAM_EMAIL_MUST_FILL): email is required when resolving assignees');
		expect(error.description).toBe('Give the lead an email address.');
		const rejected = toNodeApiError(node, findFailure(401, 'BAD_CREDENTIALS')!, 0);
		expect(rejected.message).toBe(REJECTED_API_KEY);
		expect(rejected.description).toMatch(/^Lofty answered \(HTTP 401 BAD_CREDENTIALS\): invalid API key or access token\./);
	});

	it('names status and code in the message and explains the fix', () => {
		const failure = { httpCode: 403, code: 200100, message: 'scope missing' };
		expect(failureMessage(failure)).toBe('Lofty error (HTTP 403 200100): scope missing');
		const error = toNodeApiError(node, failure, 3);
		expect(error.message).toBe('Lofty error (HTTP 403 200100): scope missing');
		expect(error.description).toMatch(/developer portal/);
		expect(error.httpCode).toBe('403');
		expect(error.context.itemIndex).toBe(3);
	});

	it.each([
		[{ httpCode: 400, code: 200058, message: 'User in token does not exist.' }, /sends it as "token <key>"/],
		[{ httpCode: 429, message: 'Too Many Requests' }, /100 requests per minute/],
	])('explains %j', (failure, hint) => {
		expect(toNodeApiError(node, failure, 0).description).toMatch(hint);
	});
});

describe('a rejected credential', () => {
	it.each([
		['loftyApi', REJECTED_API_KEY, /"Lofty API" credential/],
		['loftyOAuth2Api', REJECTED_ACCESS_TOKEN, /could not refresh the token/],
		[undefined, REJECTED_API_KEY, /"Lofty API" credential/],
	])('a 401 with %s reads as the credential test says it, with its advice', (type, message, advice) => {
		const error = toNodeApiError(node, { httpCode: 401, code: 'BAD_CREDENTIALS', message: 'Invalid API key' }, 2, undefined, type);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(advice);
		expect(error.description).toMatch(/HTTP 401 BAD_CREDENTIALS\): Invalid API key/);
		expect(error.description).not.toMatch(/Bearer/);
		expect(error.httpCode).toBe('401');
		expect(error.context.itemIndex).toBe(2);
	});

	it('a 401 without a code is a rejected credential too; the token-or-Bearer paragraph is for 200058 only', () => {
		expect(toNodeApiError(node, findFailure(401, '')!, 0, undefined, 'loftyOAuth2Api').message).toBe(REJECTED_ACCESS_TOKEN);
		const bearer = toNodeApiError(node, { httpCode: 400, code: 200058, message: 'User in token does not exist.' }, 0, undefined, 'loftyOAuth2Api');
		expect(bearer.message).toBe('Lofty error (HTTP 400 200058): User in token does not exist.');
		expect(bearer.description).toMatch(/Sending an API key as Bearer gives code 200058/);
	});

	it('the messages are the credential tests\' own', () => {
		const rules = (test: { rules?: Array<{ properties: { value?: number; message?: string } }> }) => (test.rules ?? []).filter((r) => r.properties.value === 401).map((r) => r.properties.message);
		expect(rules(new LoftyApi().test as never)).toEqual([REJECTED_API_KEY]);
		expect(rules(new LoftyOAuth2Api().test as never)).toEqual([REJECTED_ACCESS_TOKEN]);
	});
});

describe('rate-limit waits', () => {
	const now = 1_700_000_000_000;
	it('prefers Retry-After seconds', () => {
		expect(rateLimitWaitMs({ 'retry-after': '3', 'x-ratelimit-reset': String(now / 1000 + 30) }, 0, now)).toBe(3000);
	});
	it('falls back to X-RateLimit-Reset in epoch seconds', () => {
		expect(rateLimitWaitMs({ 'x-ratelimit-reset': String(now / 1000 + 10) }, 0, now)).toBe(10_250);
	});
	it('is bounded', () => {
		expect(rateLimitWaitMs({ 'retry-after': '3600' }, 0, now)).toBe(65_000);
		expect(rateLimitWaitMs({}, 1, now)).toBe(2000);
	});
});
