/**
 * What the try-out page says of a delivery (sandbox/web): the Lofty Trigger's answer in words, as docs/try-it.md shows
 * it. A delivery that started the workflow reads "started the workflow" (with the count where n8n passes the
 * trigger's answer on: "(started: 1)"); one whose events the trigger
 * already had (a second delivery, or its catch-up after a restart ran them) reads "already run"; never a bare
 * "200 delivered" when the answer said more (issue 46 item 7: the page showed "200 delivered" for the call that ran).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PAGE_HTML } from '../../sandbox/web/page';
import { answerWords } from '../../sandbox/web/actions';

/** The page's own deliveryOutcome(), taken from the page's script and run as the browser runs it. */
function pageOutcome(): (d: Record<string, string>) => string {
	const source = /function deliveryOutcome\(d\) \{[\s\S]*?\n\}/.exec(PAGE_HTML)![0];
	return new Function(`${source}; return deliveryOutcome;`)() as (d: Record<string, string>) => string;
}

const delivery = (answer: string) => ({ outcome: 'delivered', status: '200', error: '', ...answerWords(answer) });

describe("the try-out page's words for a delivery", () => {
	it.each([
		['{"received":1,"started":1}', '200 delivered, started the workflow (started: 1)'],
		['{"received":2,"started":0}', '200 delivered, filtered out (started: 0)'],
		['{"received":0,"duplicate":true}', '200 delivered, already run: the trigger had these events (duplicate), nothing ran twice'],
		['{"received":0,"ignored":"not an event list of this trigger"}', '200 delivered, ignored: not an event list of this trigger'],
		// n8n 2.41.1's answer for a delivery that started the workflow: its responseData default, not the trigger's answer.
		['firstEntryJson', '200 delivered, started the workflow'],
		['{"message":"Workflow was started"}', '200 delivered, n8n answered {"message":"Workflow was started"}'],
		['', '200 delivered'],
	])('%s reads "%s"', (answer, words) => {
		expect(pageOutcome()(delivery(answer))).toBe(words);
	});

	it('docs/try-it.md shows the words the page uses', () => {
		const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'try-it.md'), 'utf8').replace(/\s+/g, ' ');
		for (const words of ['200 delivered, started the workflow', '200 delivered, filtered out (started: 0)', '200 delivered, already run']) expect(doc).toContain(words);
	});
});
