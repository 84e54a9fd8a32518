/**
 * Lead > Create or Update behind a Webhook node, as the lead-intake example runs: a web form sent twice at once
 * starts two executions in this n8n process. While Lofty cannot read the new lead yet (the sandbox's persistence
 * delay), both would search, find nothing and create; the node's record of leads created in this process and its
 * lock per person make the second execution update the first one's lead: one lead.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import type { Sandbox } from '../../sandbox';
import { leadPersistence } from '../../sandbox/resources/lead';
import { type N8nServer, NODE_TYPE, httpRequest } from './n8nServer';
import type { Json } from './plan';

interface Setup {
	n8n: N8nServer;
	sandbox: Sandbox;
	creds: { api: Json };
}

const WEBHOOK = 'Web Form Webhook';
const UPSERT = 'Create or Update Lead';

export function defineUpsertWebhookTests(setup: () => Setup): void {
	let workflowId: string | undefined;

	afterAll(async () => {
		const { n8n, sandbox } = setup();
		leadPersistence(sandbox.store).readDelayMs = 0;
		if (workflowId) await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	});

	test('the same new person posted twice at once: one lead, one execution creates it and the other finds it', async () => {
		const { n8n, sandbox, creds } = setup();
		const path = `lofty-e2e-intake-${randomBytes(4).toString('hex')}`;
		const id = () => randomBytes(8).toString('hex');
		workflowId = await n8n.createWorkflow({
			name: 'Lofty e2e: lead intake, a form sent twice',
			nodes: [
				{
					id: id(),
					name: WEBHOOK,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
				},
				{
					id: id(),
					name: UPSERT,
					type: NODE_TYPE,
					typeVersion: 1.1,
					position: [240, 0],
					parameters: {
						authentication: 'apiKey',
						resource: 'lead',
						operation: 'upsert',
						firstName: '={{ $json.body.firstName }}',
						email: '={{ $json.body.email }}',
						phone: '={{ $json.body.phone }}',
						additionalFields: { lastName: '={{ $json.body.lastName }}', source: '={{ $json.body.source }}' },
						options: {},
					},
					credentials: { loftyApi: creds.api },
				},
			],
			connections: { [WEBHOOK]: { main: [[{ node: UPSERT, type: 'main', index: 0 }]] } },
		});
		const activated = await n8n.api('POST', `/workflows/${workflowId}/activate`);
		if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 800)}`);
		// n8n 2.41 registers a published workflow's webhooks shortly after answering the activation: ask with GET (no run,
		// no lead) until n8n knows the POST path ("not registered for GET" instead of "not registered").
		for (let i = 0; ; i++) {
			const probe = await httpRequest('GET', `${n8n.base}/webhook/${path}`);
			if (!/is not registered\./.test(probe.text)) break;
			if (i >= 100) throw new Error(`webhook ${path} not registered 20 s after activation: ${probe.text.slice(0, 300)}`);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}

		// Lofty persists a new lead asynchronously: for 20 s it is missing from searches and reads.
		leadPersistence(sandbox.store).readDelayMs = 20_000;
		const email = `twice.${Date.now()}@example.com`;
		const creates = sandbox.count('POST', '/v1.0/leads');
		const post = (body: Json) => httpRequest('POST', `${n8n.base}/webhook/${path}`, JSON.stringify(body), { 'content-type': 'application/json' });
		const bodies = [
			{ firstName: 'Tess', email, phone: '(415) 555-0177', source: 'Open House' },
			{ firstName: 'tess', email, phone: '+1 415 555 0177', lastName: 'Twice', source: 'Web Form' },
		];
		const answers = await Promise.all(bodies.map(post));
		for (const a of answers) if (a.status !== 200) throw new Error(`webhook answered ${a.status}: ${a.text.slice(0, 500)}`);
		const outputs = answers.map((a) => a.json as Json);
		// Whichever execution reaches Lofty first creates the lead; the other finds it. Body 1 brings a last name that
		// body 0 lacks: after body 0 created, body 1 fills it in (updated); after body 1 created, body 0 has nothing to
		// fill (unchanged: Only Fill Empty Fields keeps the first source and name). Both orders are seen (1.123.81).
		const creator = outputs.findIndex((o) => o.action === 'created');
		expect(outputs.filter((o) => o.action === 'created')).toHaveLength(1);
		expect(outputs[1 - creator].action).toBe(creator === 0 ? 'updated' : 'unchanged');
		expect(outputs[0].leadId).toBe(outputs[1].leadId);
		expect(sandbox.count('POST', '/v1.0/leads') - creates).toBe(1);

		// The lead: the first source and name as first given (Only Fill Empty Fields), the last name filled in.
		leadPersistence(sandbox.store).readableAt.clear();
		const read = await httpRequest('GET', `${sandbox.url}/v1.0/leads/${String(outputs[0].leadId)}`, undefined, { authorization: `token ${sandbox.apiKey}` });
		const lead = (read.json?.lead ?? read.json) as Json;
		const first = bodies[outputs.findIndex((o) => o.action === 'created')];
		expect(lead).toMatchObject({ lastName: 'Twice', source: first.source, firstName: first.firstName });
	}, 120_000);
}
