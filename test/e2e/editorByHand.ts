/**
 * Flows built by hand, as a person who does not write code builds them (registered by editor.e2e.ts, in its browser
 * and n8n), against a sandbox of their own:
 *   - the Custom Fields list loads the first time the node is opened, also when the credential was created after the
 *     editor was loaded (another tab, the Credentials page) and the editor picks it automatically;
 * The requests the editor makes for the list are recorded: none may fail.
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Response } from 'playwright-core';

import { type Sandbox, startSandbox } from '../../sandbox';
import type { EditorTools } from './editorNoCode';

const exact = (s: string): RegExp => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

export function byHandEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	const page = () => t.page();
	const mapperAnswers: string[] = [];
	const onResponse = (r: Response) => {
		if (r.url().includes('resource-mapper-fields')) mapperAnswers.push(`${r.status()}`);
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => {
		page()?.off('response', onResponse);
		await sandbox?.stop();
	});

	/** A new workflow in a freshly loaded editor (the "leave?" prompt of an unsaved one accepted). */
	async function newWorkflow(): Promise<void> {
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${t.server.base}/workflow/new`);
		page().off('dialog', leave);
		await page().locator('[data-test-id=canvas-add-button]').waitFor({ timeout: 60_000 });
	}

	/** The credential shown in the open panel, once the editor has picked one (or '' after 10 s). */
	async function pickedCredential(): Promise<string> {
		const input = t.ndv().locator('[data-test-id=node-credentials-select] input').first();
		for (let i = 0; i < 100; i++) {
			const value = (await input.count()) ? await input.inputValue() : '';
			if (value) return value;
			await page().waitForTimeout(100);
		}
		return '';
	}

	test('Custom Fields load on first open: credential created after the editor loaded, picked automatically', async () => {
		await newWorkflow();
		page().on('response', onResponse);
		// Created elsewhere (the Credentials page, another tab): this editor's list of credentials does not have it yet.
		const name = 'Lofty API (by hand)';
		await t.server.createCredential(name, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		await page().locator('[data-test-id=canvas-add-button]').click();
		await page().locator('[data-test-id=node-creator-search-bar]').fill('Lofty');
		await page().locator('[data-test-id=node-creator-item-name]', { hasText: exact('Lofty') }).first().click();
		await page().locator('text=/^Actions \\(/').first().click();
		await page().locator('[data-test-id=node-creator-item-name]', { hasText: exact('Create a lead') }).first().click();
		await t.ndv().waitFor();
		expect(await pickedCredential()).toBe(name);
		const add = t.ndv().locator('button', { hasText: /Add custom field/ });
		const shown = await add.waitFor({ timeout: 20_000 }).then(
			() => true,
			() => false,
		);
		await t.shot('light', 'by-hand-mapper-first-open');
		t.log(`by hand: mapper requests answered ${mapperAnswers.join(', ') || 'nothing'}; fields ${shown ? 'shown' : 'NOT shown'} on first open`);
		expect({ shown, answers: mapperAnswers.filter((s) => s !== '200') }).toEqual({ shown: true, answers: [] });
	});
}
