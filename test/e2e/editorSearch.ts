/**
 * The node search and a new node's credential, as a person meets them (registered by editor.e2e.ts, in its browser and
 * n8n):
 *   - every phrase docs/operations.md names (its search table) is typed into the node search; the Lofty entries the
 *     table names are listed (n8n merges the Lofty Trigger into the Lofty entry);
 *   - with the credentials the try-out makes (scripts/tryout/credentials.js, in its import order), a Lofty node added
 *     from the search gets the API key credential, which works at once, not an OAuth2 one that needs Connect.
 * Screenshots (also under /tmp/shots/i37b when LOFTY_E2E_SHOTS_COPY names a folder): search-<phrase>,
 * new-node-credential.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ROOT } from './n8nServer';
import { exact } from './editorPage';
import type { EditorTools } from './editorNoCode';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { oauthCredentials, apiCredentials } = require('../../scripts/tryout/credentials');

/** The rows of docs/operations.md's search table: what is typed, and the entries it shows. */
export function documentedSearches(): Array<{ typed: string; shows: string[] }> {
	const doc = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
	const table = /<!-- search:start -->([\s\S]*?)<!-- search:end -->/.exec(doc)?.[1] ?? '';
	return [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \|$/gm)].map((m) => ({ typed: m[1], shows: m[2].split(',').map((s) => s.trim()) }));
}

export function searchEditorChecks(t: EditorTools): void {
	const page = () => t.page();
	const copyShot = async (name: string): Promise<void> => {
		const dir = process.env.LOFTY_E2E_SHOTS_COPY;
		if (!dir) return;
		fs.mkdirSync(dir, { recursive: true });
		await page().screenshot({ path: path.join(dir, `${name}.png`) });
	};

	test('node search: every phrase docs/operations.md names lists the Lofty entries it names', async () => {
		const searches = documentedSearches();
		expect(searches.length).toBeGreaterThan(5);
		await t.newWorkflow();
		const seen: string[] = [];
		for (const { typed, shows } of searches) {
			await page().locator('[data-test-id=canvas-add-button]').click();
			const search = page().locator('[data-test-id=node-creator-search-bar]');
			await search.waitFor();
			await search.fill(typed);
			const names = page().locator('[data-test-id=node-creator] [data-test-id=node-creator-item-name]');
			for (const entry of shows) await names.filter({ hasText: exact(entry) }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
			const listed = (await names.allInnerTexts()).map((s) => s.trim());
			seen.push(`${typed}: ${listed.slice(0, 6).join(', ')}`);
			await copyShot(`search-${typed.replace(/\W+/g, '-')}`);
			for (const entry of shows) expect(`${typed} -> ${listed.includes(entry) ? entry : `(not listed; listed: ${listed.join(', ')})`}`).toBe(`${typed} -> ${entry}`);
			await page().keyboard.press('Escape');
			await page().locator('[data-test-id=node-creator]').waitFor({ state: 'hidden' }).catch(() => undefined);
		}
		t.log(`node search:\n  ${seen.join('\n  ')}`);
	});

	test("a new Lofty node gets the try-out's API key credential, not an OAuth2 one that needs Connect", async () => {
		const sandbox = {
			url: 'http://127.0.0.1:9',
			apiKey: 'e2e-not-a-key',
			oauth: { clientId: 'e2e-client', clientSecret: 'e2e-secret', authUrl: 'http://127.0.0.1:9/authorize', tokenUrl: 'http://127.0.0.1:9/token' },
		};
		// As the try-out imports them: the OAuth2 ones, then the API key and the tool server's Bearer credential.
		for (const c of [...oauthCredentials(sandbox), ...apiCredentials(sandbox)] as Array<{ name: string; type: string; data: Record<string, unknown> }>) {
			await t.server.createCredential(c.name, c.type, c.data);
		}
		await t.newWorkflow();
		await t.addFromNodeSearch(page().locator('[data-test-id=canvas-add-button]'), 'Lofty', 'Get a lead by ID');
		const picked = await t.pickedCredential();
		await t.shot('light', 'new-node-credential');
		await copyShot('new-node-credential');
		expect(picked).toBe('Lofty API (sandbox)');
		await page().locator('[data-test-id=ndv-close-button]').click();
		await t.ndv().waitFor({ state: 'hidden' });
	});
}
