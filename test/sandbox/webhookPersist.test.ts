/**
 * Subscriptions kept across restarts (sandbox/resources/webhook/persist.ts): a sandbox started again with the file
 * of the last one has the subscriptions made through the API, with their IDs, and delivers to them; the seeded ones
 * are not written (the seed brings them back), and new subscriptions get IDs above the restored ones.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';

import { type Sandbox, startSandbox } from '../../sandbox';
import { keepSubscriptions } from '../../sandbox/resources/webhook/persist';
import { WEBHOOK_IDS } from '../../sandbox/resources/webhook/seed';
import { ScriptedReceiver } from '../harness/receiver';

/** Subscribes; resolves the new subscription's ID as text (IDs are above 2^53). */
const subscribe = async (sb: Sandbox, listId: number, callbackUrl: string): Promise<string> => {
	const r = await axios.post(`${sb.url}/v1.0/webhook`, { listId, callbackUrl }, { headers: { Authorization: `token ${sb.apiKey}` }, transformResponse: (t) => t });
	return /"subscribeId":(\d+)/.exec(r.data as string)![1];
};
const list = async (sb: Sandbox) => (await axios.get(`${sb.url}/v1.0/webhooks`, { headers: { Authorization: `token ${sb.apiKey}` }, transformResponse: (t) => t })).data as string;

describe('webhook subscriptions kept in a file across sandbox restarts', () => {
	let dir: string;
	let receiver: ScriptedReceiver;
	const started: Sandbox[] = [];
	const start = async (): Promise<Sandbox> => {
		const sb = await startSandbox({ port: 0, webhooks: { allowHttpCallbacks: true } });
		started.push(sb);
		return sb;
	};

	beforeAll(async () => {
		receiver = await new ScriptedReceiver().start();
	});
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-webhooks-'));
	});
	afterEach(async () => {
		for (const sb of started.splice(0)) await sb.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	});
	afterAll(async () => await receiver.stop());

	test('a restarted sandbox lists and delivers to the subscriptions of the last one, with the same IDs', async () => {
		const file = path.join(dir, 'webhooks.json');
		const first = await start();
		const kept = keepSubscriptions(first.store, file, 20);
		expect(kept.restored).toBe(0);
		const made = await subscribe(first, 12, receiver.url);
		kept.stop();
		const ids = JSON.parse(fs.readFileSync(file, 'utf8')).map((s: { subscribeId: string }) => s.subscribeId);
		expect(ids).toHaveLength(1);
		expect(ids).not.toContain(WEBHOOK_IDS.demoLead);

		const second = await start();
		const again = keepSubscriptions(second.store, file, 20);
		expect(again.restored).toBe(1);
		expect(await list(second)).toContain(`"subscribeId":${ids[0]}`);
		expect(made).toBe(ids[0]);
		// Delivered to, as before the restart: a stage change on a seeded lead.
		const lead = [...second.store.leads.values()].find((l) => l.stage === 'New' && l.assignedUserId !== null)!;
		await axios.put(`${second.url}/v1.0/leads/${lead.leadId}`, { stage: 'Hot' }, { headers: { Authorization: `token ${second.apiKey}`, 'Content-Type': 'application/json' } });
		await second.webhooks.flush();
		expect(receiver.deliveries.some((r) => r.text.includes(`"leadId":${lead.leadId}`) && r.text.includes('updatedLeadstage'))).toBe(true);
		// A new subscription gets an ID above the restored one.
		const next = await subscribe(second, 6, receiver.url);
		expect(BigInt(next) > BigInt(ids[0])).toBe(true);
		again.stop();
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveLength(2);
	});

	test('a deleted subscription stays deleted after a restart', async () => {
		const file = path.join(dir, 'webhooks.json');
		const first = await start();
		const kept = keepSubscriptions(first.store, file, 20);
		const made = await subscribe(first, 2, receiver.url);
		await axios.delete(`${first.url}/v1.0/webhook/${made}`, { headers: { Authorization: `token ${first.apiKey}`, 'Content-Type': 'application/json' } });
		kept.stop();
		const second = await start();
		expect(keepSubscriptions(second.store, file, 20).restored).toBe(0);
		expect(await list(second)).not.toContain(`"subscribeId":${made}`);
	});
});
