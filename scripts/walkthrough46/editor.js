/**
 * The walkthrough's browser side (scripts/walkthrough46.js): its state (the page, screenshots, notes), waiting, and the
 * editor as a person works it: a workflow or node opened, Execute workflow clicked, a dropdown read, the output panel
 * read, a mapper field switched to an expression, Multi-Choice Custom Fields opened once.
 */
'use strict';

const path = require('path');
const { ROOT } = require('../n8n-harness');

const OUT = path.resolve(process.env.WALKTHROUGH_SHOTS || path.join(ROOT, 'screenshots', 'walkthrough46'));

const t0 = Date.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stdout.write(`[walkthrough +${((Date.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);
const exact = (s) => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);

const shots = []; // { file, item, caption }
const notes = []; // { item, ok, text }
let shotCount = 0;
let phase = 'start'; // where the walkthrough is (the last screenshot), for what the browser saw fail
let page;
const setPage = (p) => (page = p);

function note(item, ok, text) {
	notes.push({ item, ok, text });
	log(`${ok === true ? 'OK  ' : ok === false ? 'FIND' : 'info'} item ${item}: ${text}`);
}

/** A part of an item that may fail without ending the item: noted as a finding, photographed, dropdowns closed; false when it failed. */
async function soft(item, what, fn) {
	try {
		await fn();
		return true;
	} catch (e) {
		note(item, false, `${what} failed: ${String(e.message || e).split('\n').slice(0, 3).join(' ')}`);
		await shot(item, `${what.replace(/\W+/g, '-')}-FAILED`, `where "${what}" failed`);
		if (await page.locator('.el-select-dropdown__item:visible, .el-select-dropdown__empty:visible').first().isVisible().catch(() => false)) await closeDropdown();
		return false;
	}
}

async function until(check, what, ms = 60_000, every = 500) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await Promise.resolve().then(check).catch(() => undefined);
		if (v) return v;
		if (Date.now() > end) throw new Error(`timed out (${ms / 1000}s) waiting for ${what}`);
		await sleep(every);
	}
}

// ---------- the browser ----------

const ndv = () => page.locator('[data-test-id=ndv]');
const param = (name) => ndv().locator(`[data-test-id="parameter-input-${name}"]`);

async function shot(item, what, caption, target = page) {
	const file = `${String(++shotCount).padStart(2, '0')}-item${item}-${what}.png`;
	await target.screenshot({ path: path.join(OUT, file) }).catch((e) => log(`screenshot ${file} failed: ${e.message}`));
	shots.push({ file, item, caption });
	phase = `after ${file}`;
	log(`shot ${file}: ${caption}`);
}

/** A page of text (what an MCP client got, a saved workflow) in a tab of its own, photographed. */
async function textShot(item, what, caption, title, sections) {
	const tab = await page.context().newPage();
	try {
		const body = sections.map(([h, text]) => `<h3>${esc(h)}</h3><pre>${esc(text)}</pre>`).join('');
		await tab.setContent(`<html><body style="font-family:sans-serif;margin:24px"><h2>${esc(title)}</h2>${body}</body></html>`);
		await tab.addStyleTag({ content: 'pre{white-space:pre-wrap;background:#f4f4f4;padding:10px;font-size:13px}' });
		const file = `${String(++shotCount).padStart(2, '0')}-item${item}-${what}.png`;
		await tab.screenshot({ path: path.join(OUT, file), fullPage: true });
		shots.push({ file, item, caption });
		log(`shot ${file}: ${caption}`);
	} finally {
		await tab.close();
	}
}

async function openWorkflow(base, id) {
	const leave = (d) => void d.accept();
	page.on('dialog', leave);
	await page.goto(`${base}/workflow/${id}`);
	page.off('dialog', leave);
	await page.locator('[data-test-id=canvas-node]').first().waitFor({ timeout: 60_000 });
	await sleep(1000);
}

async function openNode(name) {
	await page.locator('[data-test-id=canvas-node]').filter({ hasText: name }).first().dblclick();
	await ndv().waitFor();
	await sleep(1500);
}

async function closeNdv() {
	if (!(await ndv().isVisible())) return;
	await page.keyboard.press('Escape');
	await ndv().waitFor({ state: 'hidden', timeout: 5000 }).catch(async () => {
		await page.locator('[data-test-id=ndv-close-button]').click();
		await ndv().waitFor({ state: 'hidden' });
	});
}

/** Clicks Execute workflow and waits for the run n8n records; gives its ID. */
async function executeByClicking(rest, workflowId) {
	const before = new Set((await rest.executions(workflowId)).map((e) => String(e.id)));
	await page.locator('[data-test-id=execute-workflow-button]:visible').first().click();
	const done = await until(
		async () => (await rest.executions(workflowId)).find((e) => !before.has(String(e.id)) && !['new', 'running', 'waiting'].includes(e.status)),
		`a finished run of workflow ${workflowId}`,
		120_000,
		1000,
	);
	await sleep(1500);
	return String(done.id);
}

/** The options of the open dropdown (their headline). */
async function openOptions() {
	return await page
		.locator('.el-select-dropdown__item:visible')
		.evaluateAll((els) => els.map((e) => (e.querySelector('.option-headline')?.textContent ?? e.textContent ?? '').trim()));
}

async function closeDropdown() {
	await page.keyboard.press('Escape');
	await page.locator('.el-select-dropdown__item:visible').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
}

/** The output panel's text, with the JSON view picked when n8n offers it. */
async function outputText() {
	const panel = ndv().locator('[data-test-id=output-panel]').first();
	const json = panel.locator('[data-test-id=ndv-run-data-display-mode]').getByText('JSON', { exact: true }).first();
	if (await json.isVisible().catch(() => false)) await json.click().catch(() => undefined);
	await sleep(800);
	return (await panel.innerText().catch(() => '')).trim();
}

/** The panel's error box (message and description), when the node failed. */
async function errorText() {
	const parts = [];
	for (const id of ['node-error-message', 'node-error-description']) {
		const el = ndv().locator(`[data-test-id=${id}]`).first();
		if (await el.isVisible().catch(() => false)) parts.push((await el.innerText()).trim());
	}
	return parts.join(' | ');
}


/** Switches a mapper field to Expression and types `text` (as editorKeep.ts does). */
async function mapExpression(id, text) {
	const row = param(id).first().locator('xpath=ancestor::*[.//*[@data-test-id="radio-button-expression"]][1]');
	const editor = row.locator('[data-test-id=inline-expression-editor-input]').first();
	for (let i = 0; i < 3 && !(await editor.isVisible()); i++) {
		await row.hover();
		await row.locator('[data-test-id=radio-button-expression]').first().click();
		await editor.waitFor({ timeout: 15_000 }).catch(() => undefined);
	}
	const content = row.locator('[data-test-id=inline-expression-editor-input] .cm-content').first();
	for (let i = 0; i < 3 && (await content.innerText()).trim() !== text; i++) {
		await editor.click();
		await page.keyboard.press('ControlOrMeta+A');
		await page.keyboard.press('Delete');
		await page.keyboard.insertText(text);
	}
	await ndv().locator('[data-test-id=node-title-container]').first().click();
}

/**
 * Opens Multi-Choice Custom Fields once, as a person does a moment after the panel opened, and says what it listed
 * (or "No data"); then, if it did not list the choices, clicks again until it does (as the person would).
 */
async function multiChoiceOpen(item, what, caption) {
	await sleep(2000);
	const select = param('customFieldChoices').locator('.el-select').first();
	await select.scrollIntoViewIfNeeded();
	await select.click();
	const items = page.locator('.el-select-dropdown__item:visible');
	const empty = page.locator('.el-select-dropdown__empty:visible');
	await items.first().or(empty.first()).waitFor({ timeout: 10_000 }).catch(() => undefined);
	await sleep(500);
	const first = { options: await openOptions(), empty: (await empty.allInnerTexts()).join(' ').trim() };
	await shot(item, what, `${caption}: ${first.options.length ? `lists ${first.options.join(', ')}` : `shows "${first.empty || 'nothing'}"`}`);
	for (let i = 0; i < 4 && !(await items.first().isVisible().catch(() => false)); i++) {
		await closeDropdown();
		await select.click();
		await items.first().waitFor({ timeout: 10_000 }).catch(() => undefined);
	}
	return first;
}

module.exports = {
	OUT, t0, phase: () => phase, sleep, log, exact, esc, shots, notes, note, soft, until, page: () => page, setPage, ndv, param, shot, textShot,
	openWorkflow, openNode, closeNdv, executeByClicking, openOptions, closeDropdown, outputText, errorText, mapExpression, multiChoiceOpen,
};
