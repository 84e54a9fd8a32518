/**
 * Query values and path segments go out fully percent-encoded (RFC 3986: ! ' ( ) * too), from the one
 * transport: checked on the wire (the raw request line a server receives) and against the sandbox (the value
 * arrives intact and finds the record).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { buildRequest } from '../../nodes/Lofty/model/execute';
import type { OperationDef } from '../../nodes/Lofty/model/types';
import { buildQuery, encodeComponent } from '../../nodes/Lofty/transport/request';
import { SEED_IDS } from '../../sandbox';
import { run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const PHONE = '(415) 555-0101';

describe('percent-encoding', () => {
	it('encodes the characters encodeURIComponent leaves, and keeps the unreserved ones', () => {
		expect(encodeComponent("a!b'c(d)e*f")).toBe('a%21b%27c%28d%29e%2Af');
		expect(encodeComponent('AZaz09-._~')).toBe('AZaz09-._~');
		expect(encodeComponent('a b&c=d/é')).toBe('a%20b%26c%3Dd%2F%C3%A9');
		expect(buildQuery({ phone: PHONE, tags: ['x(1)', "o'k"] })).toBe("?phone=%28415%29%20555-0101&tags=x%281%29&tags=o%27k");
	});

	it('encodes a path segment the same way', () => {
		const op = { method: 'GET', path: '/v1.0/things/{thingId}', params: [{ name: 'thingId', label: 'Thing', type: 'string', in: 'path' }] } as unknown as OperationDef;
		expect(buildRequest(op, { thingId: "12(3)!*'" }).path).toBe('/v1.0/things/12%283%29%21%2A%27');
	});

	it('on the wire: the request line carries no raw ( ) ! * \'', async () => {
		const lines: string[] = [];
		const server: Server = createServer((req, res) => {
			lines.push(req.url ?? '');
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ leads: [], _metadata: { total: 0 } }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 5, filters: { phone: PHONE } }, { credential: { type: 'loftyApi', data: { apiKey: 'wire-test', baseUrl } } });
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain('phone=%28415%29%20555-0101');
		expect(lines[0]).not.toMatch(/[()!*']/);
	});

	it('against the sandbox: a phone with parentheses and a space arrives intact and finds its lead', async () => {
		const lead = sandbox().store.addLead({ firstName: 'Paren', ownerUserId: SEED_IDS.demoUserId, phones: [PHONE] });
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 5, filters: { phone: PHONE } });
		expect(sandbox().requests[0].query.phone).toBe(PHONE);
		expect(items.map((i) => i.json.leadId)).toEqual([lead.leadId.toString()]);
	});
});
