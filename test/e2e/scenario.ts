/**
 * The steps of one end-to-end scenario, run in the background one after the other, each reported by a jest test of
 * its own. Several scenarios started together (polling.e2e.ts: one n8n server a version) wait for their n8n's poll
 * ticks at the same time instead of in turn; the file takes about as long as its slowest scenario.
 *
 * A step's test awaits the step: what the step asserts fails that test, as if the step ran inside it. A step starts
 * once the one before it has settled, failed or not (as jest goes on to the next test); when the setup failed,
 * every step fails with the setup's error. `start()` does not wait; `stop()` waits for every step, then tears down.
 * jest's `-t` picks the tests that report; the steps of every started scenario run all the same.
 */

/** A step's test waits for the steps of its scenario before it too (and for the other scenarios' n8n starts). */
const STEP_TEST_TIMEOUT_MS = 30 * 60_000;

export class BackgroundScenario {
	private readonly steps: { name: string; run: () => Promise<void> }[] = [];
	private readonly results = new Map<string, Promise<void>>();
	private settled: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly setup: () => Promise<void>,
		private readonly teardown: () => Promise<void>,
	) {}

	/** Declares a step and the jest test that reports it (call it inside the scenario's describe). */
	test(name: string, run: () => Promise<void>): void {
		this.steps.push({ name, run });
		test(name, () => this.result(name), STEP_TEST_TIMEOUT_MS);
	}

	/** Starts the setup, then the steps in the order declared; returns at once. */
	start(): void {
		const setup = this.setup();
		let previous: Promise<unknown> = setup;
		for (const step of this.steps) {
			const run = previous
				.catch(() => undefined)
				.then(async () => {
					await setup;
					await step.run();
				});
			run.catch(() => undefined); // reported by the step's test
			this.results.set(step.name, run);
			previous = run;
		}
		this.settled = previous.catch(() => undefined);
	}

	result(name: string): Promise<void> {
		const run = this.results.get(name);
		if (!run) throw new Error(`step "${name}": its scenario was not started`);
		return run;
	}

	/** Waits until every step has settled, then tears down. */
	async stop(): Promise<void> {
		await this.settled;
		await this.teardown();
	}
}
