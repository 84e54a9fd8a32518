/**
 * One sandbox per trigger test file, with its delivery engine driven by the test (sandbox time stands still
 * at T0 unless the engine's clock advances), and the trigger harnesses a test starts, stopped after it.
 */
import { type Sandbox, startSandbox } from '../../sandbox';
import { type DeliveryEngine, configureDelivery, webhookDelivery } from '../../sandbox/resources/webhook/delivery';
import type { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { type TriggerHarness, restartTrigger, startTrigger, triggerApiKey } from './trigger';
import { STEP_BUDGET_MS } from './budgets';

export const T0 = Date.UTC(2026, 0, 5, 9);

export interface TriggerWorld {
	sb: Sandbox;
	engine: DeliveryEngine;
	/** A trigger with the demo API key, activated as n8n does. */
	activeTrigger(params: Record<string, unknown>): Promise<TriggerHarness>;
	/** "n8n restarted" (see restartTrigger); the new harness is stopped after the test. */
	restart(previous: TriggerHarness): Promise<TriggerHarness>;
	/** Stops this harness after the test. */
	track(h: TriggerHarness): TriggerHarness;
}

/** `node`: the trigger as n8n built it, for a file that needs other time limits (default: the node's own). */
export function useTriggerWorld(node?: LoftyTrigger): () => TriggerWorld {
	const harnesses: TriggerHarness[] = [];
	let world: TriggerWorld | undefined;
	beforeAll(async () => {
		const sb = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
		const track = (h: TriggerHarness) => {
			harnesses.push(h);
			return h;
		};
		world = {
			sb,
			engine: webhookDelivery(sb),
			track,
			async activeTrigger(params) {
				const h = track(await startTrigger({ params, credential: triggerApiKey(sb), node }));
				await h.activate();
				return h;
			},
			async restart(previous) {
				harnesses.splice(harnesses.indexOf(previous), 1);
				return track(await restartTrigger(previous));
			},
		};
	});
	beforeEach(() => {
		const w = world!;
		w.sb.store.now = () => T0;
		w.sb.reset();
		configureDelivery(w.sb.store, { allowHttpCallbacks: true, random: () => 0.5, timeoutMs: STEP_BUDGET_MS });
		w.engine = webhookDelivery(w.sb);
	});
	afterEach(async () => {
		while (harnesses.length) await harnesses.pop()!.stop();
	});
	afterAll(async () => await world?.sb.stop());
	return () => world!;
}
