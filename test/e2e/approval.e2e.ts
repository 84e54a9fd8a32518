/**
 * Safe by default (issue 39): in n8n 2.41.1 an AI Agent's Lofty Delete tool connected through n8n's Human review (the
 * Email node's Send and Wait, as a tool) does not run when the model calls it: n8n sends the approval request (to a
 * local SMTP sink here) and the execution waits for a person. The sandbox never receives the DELETE, and the lead is
 * still there.
 */
import * as net from 'node:net';

import type { Sandbox } from '../../sandbox';
import type { FakeOpenAi, Json, Reply } from './fakeOpenAi';
import { N8nServer, NODE_TYPE } from './n8nServer';
import { agentWorkflow, fakeOpenAiCredential, startAgentWorld } from './agentWorkflow';

const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';

/** An SMTP server that accepts every message and keeps it (what n8n's Send and Wait sends). */
function smtpSink(): Promise<{ port: number; messages: string[]; close: () => void }> {
	const messages: string[] = [];
	const server = net.createServer((socket) => {
		let data = false;
		let message = '';
		socket.write('220 sink ESMTP\r\n');
		socket.on('data', (chunk) => {
			for (const line of chunk.toString('utf8').split('\r\n')) {
				if (data) {
					if (line === '.') {
						data = false;
						messages.push(message);
						socket.write('250 OK\r\n');
					} else message += `${line}\n`;
					continue;
				}
				const command = line.slice(0, 4).toUpperCase();
				if (command === 'EHLO') socket.write('250-sink\r\n250 8BITMIME\r\n');
				else if (command === 'HELO' || command === 'MAIL' || command === 'RCPT' || command === 'RSET' || command === 'NOOP') socket.write('250 OK\r\n');
				else if (command === 'DATA') {
					data = true;
					socket.write('354 go on\r\n');
				} else if (command === 'QUIT') socket.end('221 bye\r\n');
			}
		});
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as net.AddressInfo).port, messages, close: () => server.close() })));
}

describe(`Human review in front of Lead > Delete (n8n ${VERSION})`, () => {
	const n8n = new N8nServer(VERSION, `approval-${VERSION}`);
	let sandbox: Sandbox;
	let model: FakeOpenAi;
	let leadId = '';
	let smtp: Awaited<ReturnType<typeof smtpSink>>;
	let status = '';

	const script = (messages: Json[], tools: Json[]): Reply => {
		const del = tools.map((t) => t.function?.name as string).find((n) => /Delete/.test(n)) ?? 'missing-Delete_Lead';
		if (!messages.some((m) => m.role === 'tool')) return { tool: del, args: { toolParameters: { leadId, reason: 'Duplicate' }, hitlParameters: {} } };
		return { text: 'Asked for approval.' };
	};

	beforeAll(async () => {
		smtp = await smtpSink();
		({ sandbox, model, leadId } = await startAgentWorld(n8n, script, { firstName: 'Never', lastName: 'Deleted', emails: ['never.deleted@example.com'] }));
		const openAi = await fakeOpenAiCredential(n8n, model);
		const lofty = await n8n.createCredential('Lofty API (approval e2e)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const mail = await n8n.createCredential('SMTP sink (approval e2e)', 'smtp', { user: '', password: '', host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true });
		const wf = agentWorkflow({ name: 'Lofty e2e: Delete behind Human review', version: VERSION, prompt: `Delete the lead ${leadId}.`, openAiCredential: openAi, tools: [] });
		wf.nodes.push(
			{
				id: 'a1', name: 'Delete Lead', type: `${NODE_TYPE}Tool`, typeVersion: 1.3, position: [400, 480],
				parameters: { authentication: 'apiKey', descriptionType: 'auto', resource: 'lead', operation: 'delete', leadId: { __rl: true, mode: 'id', value: "={{ $fromAI('leadId', 'ID of the lead', 'string') }}" }, reason: "={{ $fromAI('reason', 'Why the lead is deleted', 'string') }}" },
				credentials: { loftyApi: { id: lofty, name: 'Lofty API (approval e2e)' } },
			},
			{
				id: 'a2', name: 'Human Review', type: 'n8n-nodes-base.emailSendHitlTool', typeVersion: 2.1, position: [400, 240],
				parameters: { fromEmail: 'n8n@example.com', toEmail: 'owner@example.com', subject: 'Approve a Lofty tool call', options: {} },
				credentials: { smtp: { id: mail, name: 'SMTP sink (approval e2e)' } },
			},
		);
		wf.connections['Delete Lead'] = { ai_tool: [[{ node: 'Human Review', type: 'ai_tool', index: 0 }]] };
		wf.connections['Human Review'] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
		const id = await n8n.createWorkflow(wf);
		const started = await n8n.rest('POST', `/rest/workflows/${id}/run`, { triggerToStartFrom: { name: 'Manual Trigger' } });
		const executionId = String((started.json?.data ?? started.json)?.executionId);
		const deadline = Date.now() + 120_000;
		while (Date.now() < deadline) {
			const ex = (await n8n.api('GET', `/executions/${executionId}`)).json as Json;
			status = String(ex?.status ?? '');
			if (status && status !== 'running' && status !== 'new') break;
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		n8n.log(`approval: execution ${executionId} ${status}; approval mails: ${smtp.messages.length}`);
		if (status !== 'waiting') n8n.log(n8n.logTail(30));
	});

	afterAll(async () => {
		await n8n.stop();
		await model?.stop();
		await sandbox?.stop();
		smtp?.close();
	});

	test('the model called Delete; n8n asked a person and the execution waits', () => {
		expect(status).toBe('waiting');
		expect(smtp.messages.length).toBe(1);
		expect(smtp.messages[0]).toMatch(/Approve a Lofty tool call/);
	});

	test('the sandbox never received the DELETE, and the lead is still there', () => {
		expect(sandbox.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
		expect(sandbox.store.leads.get(leadId)).toBeDefined();
	});
});
