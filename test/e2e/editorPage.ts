/**
 * The editor page as a person works it (for editor.e2e.ts, in its browser): the node panel, the node search and the
 * credential dialog; the labels and dropdown options a person sees, picking an option, the package's icon, error
 * notifications on screen.
 */
// Types only: erased at run time (see editor.e2e.ts).
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator, Page } from 'playwright-core';

import { PACKAGE_NAME } from './n8nServer';

export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const exact = (s: string): RegExp => new RegExp(`^\\s*${escapeRe(s)}\\s*$`);

/** The little of the DOM the page functions below use (the project compiles without the DOM library). */
interface El {
	innerText?: string;
	textContent: string | null;
	querySelector(selector: string): El | null;
	getAttribute(name: string): string | null;
}
interface Img extends El {
	complete: boolean;
	naturalWidth: number;
}

/** The page functions on the page `page()` returns (the page is opened in editor.e2e.ts's beforeAll). */
export function editorPage(page: () => Page) {
	const ndv = (): Locator => page().locator('[data-test-id=ndv]');
	const credentialModal = (): Locator => page().locator('[data-test-id=editCredential-modal]');
	const creator = (): Locator => page().locator('[data-test-id=node-creator]');

	/** The labels a person sees in a panel, top to bottom (first line of each label). */
	async function labelsIn(scope: Locator): Promise<string[]> {
		return scope.locator('label:visible').evaluateAll((els: El[]) => els.map((e) => (e.innerText || '').split('\n')[0].replace(/\s*\*$/, '').trim()).filter(Boolean));
	}
	/** The panel's field labels, the same on 2.41 and 2.8 (2.8 labels the Fixed/Expression switch and words Credential longer). */
	const ndvLabels = async (): Promise<string[]> =>
		(await labelsIn(ndv().locator('[data-test-id=node-parameters]'))).filter((l) => l !== 'Fixed' && l !== 'Expression').map((l) => (l.startsWith('Credential') ? 'Credential' : l));

	/** The visible options of the open dropdown: their headline (options with a description have one). */
	async function openOptions(): Promise<string[]> {
		const items = page().locator('.el-select-dropdown__item:visible');
		await items.first().waitFor();
		return items.evaluateAll((els: El[]) => els.map((e) => (e.querySelector('.option-headline')?.textContent ?? e.textContent ?? '').trim()));
	}

	async function chooseOption(name: string): Promise<void> {
		const names = await openOptions();
		const i = names.indexOf(name);
		if (i < 0) throw new Error(`no option "${name}" in the open dropdown (options: ${names.join(', ')})`);
		await page().locator('.el-select-dropdown__item:visible').nth(i).click();
	}

	/** Picks `name` in an options parameter of the open node panel, as a person does (click, then the option). */
	async function pick(scope: Locator, param: string, name: string): Promise<void> {
		const input = scope.locator(`[data-test-id=parameter-input-${param}]`);
		// A dropdown closed just before (Escape) fades out: its options must not be read as this one's.
		await dropdownClosed();
		await input.click();
		await chooseOption(name);
		await expectValue(scope, param, name);
		await dropdownClosed();
	}

	/** Closes the open dropdown (Escape) and waits until it is gone. */
	async function closeDropdown(): Promise<void> {
		await page().keyboard.press('Escape');
		await dropdownClosed();
	}

	/** Waits until no dropdown list is on screen, so the next one read is the one just opened. */
	async function dropdownClosed(): Promise<void> {
		await page().locator('.el-select-dropdown__item:visible').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
	}

	async function expectValue(scope: Locator, param: string, value: string): Promise<void> {
		const input = scope.locator(`[data-test-id=parameter-input-${param}] input`).first();
		await input.waitFor();
		for (let i = 0; i < 40 && (await input.inputValue()) !== value; i++) await page().waitForTimeout(50);
		expect(`${param} = ${await input.inputValue()}`).toBe(`${param} = ${value}`);
	}

	/** `a` comes before each of `later` in the list. */
	function expectBefore(labels: string[], a: string, later: string[]): void {
		const ia = labels.indexOf(a);
		expect(ia).toBeGreaterThanOrEqual(0);
		for (const l of later) {
			const il = labels.indexOf(l);
			if (il >= 0 && il < ia) throw new Error(`"${a}" should come before "${l}": ${labels.join(' | ')}`);
		}
	}

	/** The options of a collection's "Add Field"/"Add Filter" dropdown; closes it again. */
	async function collectionOptions(collectionLabel: string): Promise<string[]> {
		const block = ndv()
			.locator('[data-test-id=parameter-item]')
			.filter({ has: page().locator('label', { hasText: exact(collectionLabel) }) })
			.first();
		await dropdownClosed();
		await block.locator('[data-test-id=collection-parameter-add]').click();
		const names = await openOptions();
		await page().keyboard.press('Escape');
		await dropdownClosed();
		return names;
	}

	/** No error notification and no error banner on screen. */
	async function expectNoErrorOnScreen(where: string): Promise<void> {
		const errors = await page()
			.locator('.el-notification:visible, [role=alert]:visible, [data-test-id=banner-stack] :visible')
			.evaluateAll((els: El[]) =>
				els
					.filter((e) => e.querySelector('.el-notification--error') || /error|problem|could not|failed/i.test(e.innerText || ''))
					.map((e) => (e.innerText || '').trim().slice(0, 300)),
			);
		if (errors.length) throw new Error(`error shown on screen (${where}): ${[...new Set(errors)].join(' / ')}`);
	}

	async function iconSrcs(scope: Locator): Promise<Array<{ src: string; loaded: boolean }>> {
		return scope.locator('img').evaluateAll((els: Img[]) => els.map((e) => ({ src: e.getAttribute('src') ?? '', loaded: e.complete && e.naturalWidth > 0 })));
	}

	/** Our icon (light or dark file) is shown and has loaded. */
	async function expectOurIcon(scope: Locator, theme: 'light' | 'dark'): Promise<void> {
		const file = theme === 'dark' ? 'lofty.dark.svg' : 'lofty.svg';
		const re = new RegExp(`/icons/${escapeRe(PACKAGE_NAME)}/.*/${escapeRe(file)}$`);
		let icons: Array<{ src: string; loaded: boolean }> = [];
		for (let i = 0; i < 40; i++) {
			icons = (await iconSrcs(scope)).filter((x) => re.test(x.src));
			if (icons.some((x) => x.loaded)) return;
			await page().waitForTimeout(100);
		}
		throw new Error(`no loaded ${file} icon here (images: ${JSON.stringify(await iconSrcs(scope))})`);
	}

	async function openNodeCreatorAndSearch(opener: Locator): Promise<void> {
		await opener.click();
		const search = page().locator('[data-test-id=node-creator-search-bar]');
		await search.waitFor();
		await search.fill('Lofty');
		await creator().locator('[data-test-id=node-creator-item-name]', { hasText: exact('Lofty') }).first().waitFor();
	}

	/**
	 * Adds the action `action` from the node search `opener` opens, searching for `words` as a person would: the action
	 * itself when the search lists it, otherwise the Lofty entry and then the action in its Actions section.
	 */
	async function addFromNodeSearch(opener: Locator, words: string, action: string): Promise<void> {
		await opener.click();
		const search = page().locator('[data-test-id=node-creator-search-bar]');
		await search.waitFor();
		await search.fill(words);
		const items = page().locator('[data-test-id=node-creator-item-name]');
		const direct = items.filter({ hasText: exact(action) }).first();
		const lofty = items.filter({ hasText: exact('Lofty') }).first();
		await direct.or(lofty).first().waitFor({ timeout: 10_000 });
		if (!(await direct.isVisible())) {
			await lofty.click();
			// The entry lists triggers, then the actions (collapsed when the canvas is empty).
			const actions = page().locator('text=/^Actions \\(/ >> visible=true').first();
			await actions.waitFor();
			// The section header toggles; its state is not in the DOM in a stable way, so click until the action shows.
			for (let i = 0; i < 3 && !(await direct.isVisible()); i++) {
				await actions.click();
				// Long enough on a busy machine: a second click too early folds the section again.
				await direct.waitFor({ timeout: 5000 }).catch(() => undefined);
			}
		}
		// On a busy machine the list may still be moving (a click that never lands in 10 s): click again, as a person would.
		for (let i = 0; ; i++) {
			const clicked = await direct.click({ timeout: 10_000 }).then(
				() => true,
				(error: unknown) => (i < 2 ? false : Promise.reject(error)),
			);
			if (clicked) break;
		}
		await ndv().waitFor();
	}

	/** The credential shown in the open panel, once the editor has picked one (the only one there is), or '' after `withinMs`. */
	async function pickedCredential(withinMs = 20_000): Promise<string> {
		const input = ndv().locator('[data-test-id=node-credentials-select] input').first();
		for (const until = Date.now() + withinMs; Date.now() < until; ) {
			const value = (await input.count()) ? await input.inputValue() : '';
			if (value) return value;
			await page().waitForTimeout(100);
		}
		return '';
	}

	/** A new workflow in a freshly loaded editor at `base` (the "leave?" prompt of an unsaved one accepted). */
	async function newWorkflow(base: string): Promise<void> {
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${base}/workflow/new`);
		page().off('dialog', leave);
		await page().locator('[data-test-id=canvas-add-button]').waitFor({ timeout: 60_000 });
	}

	/** Picks day `day` of next month in the date picker of `input`, the picker's time left as it is; gives the value shown. */
	async function pickDayNextMonth(input: Locator, day: string): Promise<string> {
		await input.click();
		const panel = page().locator('.el-picker-panel:visible').first();
		await panel.waitFor();
		await panel.locator('.el-picker-panel__icon-btn.arrow-right, button[aria-label*="Next Month"], .el-date-picker__next-btn').last().click();
		await panel.locator('.el-date-table td.available', { hasText: exact(day) }).first().click();
		const ok = panel.locator('.el-picker-panel__footer button', { hasText: /OK|Confirm/i });
		if (await ok.isVisible()) await ok.click();
		return await input.inputValue();
	}

	async function closeCredentialModalWithoutSaving(): Promise<void> {
		await credentialModal().locator('.el-dialog__headerbtn').first().click();
		const confirm = page().locator('.el-message-box:visible');
		if (await confirm.waitFor({ timeout: 3000 }).then(() => true, () => false)) await confirm.locator('button', { hasText: exact('Close') }).click();
		await credentialModal().waitFor({ state: 'hidden' });
	}

	async function closeNdv(): Promise<void> {
		await page().locator('[data-test-id=ndv-close-button]').click();
		await ndv().waitFor({ state: 'hidden' });
	}

	/** Opens the new-credential dialog of the open panel: 2.41's "Set up credential" button, 2.8's select > Create new. */
	async function openNewCredentialDialog(): Promise<void> {
		const empty = ndv().locator('[data-test-id=node-credentials-empty-state]');
		const select = ndv().locator('[data-test-id=node-credentials-select]');
		await empty.or(select).first().waitFor();
		if (await empty.count()) return void (await empty.click());
		await select.click();
		await page().locator('[data-test-id=node-credentials-select-item-new]:visible').first().click();
	}

	return {
		ndv,
		credentialModal,
		creator,
		labelsIn,
		ndvLabels,
		openOptions,
		pick,
		closeDropdown,
		dropdownClosed,
		expectValue,
		expectBefore,
		collectionOptions,
		expectNoErrorOnScreen,
		expectOurIcon,
		openNodeCreatorAndSearch,
		addFromNodeSearch,
		pickedCredential,
		pickDayNextMonth,
		newWorkflow,
		closeCredentialModalWithoutSaving,
		closeNdv,
		openNewCredentialDialog,
	};
}
