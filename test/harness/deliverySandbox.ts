/**
 * The sandbox's webhook delivery engine for its own tests (test/trigger/delivery*.test.ts): one sandbox per test
 * file, reset before each test with its clock standing still, scripted loopback receivers stopped after each
 * test, and helpers to subscribe, read a subscription's delivery log and make a lead.
 * `sb` and `engine` are live bindings: read them inside tests; `setEngine` replaces the engine.
 */
import { DEMO_API_KEY, SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { type DeliveryEngine, configureDelivery, webhookDelivery } from '../../sandbox/resources/webhook/delivery';
import { webhookState } from '../../sandbox/resources/webhook';
import { client } from '../sandbox/helpers';
import { type ScriptedAnswer, ScriptedReceiver } from './receiver';
import { STEP_BUDGET_MS } from './budgets';

export let sb: Sandbox;
export let engine: DeliveryEngine;
export const receivers: ScriptedReceiver[] = [];

/** Sandbox time stands still unless the delivery clock advances it (deterministic gaps). */
export const T0 = Date.UTC(2026, 0, 5, 9);

/** The hooks of a delivery test file: call once, at the top of the file. */
export function useDeliverySandbox(): void {
	beforeAll(async () => {
		sb = await startSandbox({ port: 0, rateLimit: { perWindow: 100_000, windowMs: 60_000 } });
	});
	beforeEach(() => {
		sb.store.now = () => T0;
		sb.reset();
		configureDelivery(sb.store, { allowHttpCallbacks: true, random: () => 0.5, timeoutMs: STEP_BUDGET_MS });
		engine = webhookDelivery(sb);
	});
	afterEach(async () => {
		while (receivers.length) await receivers.pop()!.stop();
	});
	afterAll(() => sb.stop());
}

/** Replaces the engine the helpers and tests use (after a test reconfigures delivery). */
export function setEngine(next: DeliveryEngine): void {
	engine = next;
}

export const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });
export const teamId = BigInt(SEED_IDS.teamId);
export const demo = BigInt(SEED_IDS.demoUserId);
export const other = BigInt(SEED_IDS.otherAgentUserId);

export async function receiver(script: ScriptedAnswer[] = []): Promise<ScriptedReceiver> {
	const r = await new ScriptedReceiver(script).start();
	receivers.push(r);
	return r;
}

export async function subscribe(listId: number, url: string, opts: { limit?: number; permissionMode?: number; key?: string } = {}): Promise<string> {
	const r = await api(opts.key).post('/v1.0/webhook', { body: { listId, callbackUrl: url, limit: opts.limit, permissionMode: opts.permissionMode } });
	expect(r.status).toBe(200);
	return String(r.body.subscribeId);
}

export const logOf = (id: string) => engine.log.filter((e) => e.subscribeId === id);
export const isActive = (id: string) => webhookState(sb.store).subscriptions.get(id)!.active;

/** A fresh lead of the demo owner, assigned to the demo owner (no event: made in the store). */
export function lead(extra: Record<string, unknown> = {}) {
	return sb.store.addLead({ firstName: 'Test', ownerUserId: demo, teamId, assignedUserId: demo, ...extra });
}
