/**
 * The scripted model that tier 3 is tested with (the project's OpenAI-compatible fake, test/e2e/fakeOpenAi.ts): a
 * naive assistant that finds the person the request names, reads the lead, then adds a note or sends a text when
 * the request speaks of one, and answers. It follows no playbook, so it fails many tasks: its scores show that the
 * tier runs end to end and is graded as the others, not what a real model scores.
 */
import type { Json, Reply } from '../../test/e2e/fakeOpenAi';

const contentOf = (m: Json): string => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''));

export function fakeScript(messages: Json[], tools: Json[]): Reply {
	const tool = (name: string) => tools.map((t) => t.function?.name as string).find((n) => n.replace(/_/g, ' ').toLowerCase() === name.toLowerCase()) ?? name;
	const request = contentOf(messages.find((m) => m.role === 'user') ?? {});
	const results = messages.filter((m) => m.role === 'tool').map(contentOf);
	const leadId = /"leadId"\s*:\s*"(\d+)"/.exec(results[0] ?? '')?.[1];
	switch (results.length) {
		case 0: {
			const email = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(request)?.[0];
			const name = /\b([A-Z][a-z]+ [A-Z][a-z]+)\b/.exec(request.replace(/^\w+/, ''))?.[1];
			return { tool: tool('Search Leads'), args: { query: email ?? name ?? request.slice(0, 40) } };
		}
		case 1:
			return leadId ? { tool: tool('Get Lead'), args: { leadId } } : { text: 'I could not find that person in Lofty.' };
		case 2:
			if (/\bnote\b/i.test(request)) return { tool: tool('Add Note'), args: { leadId, content: `From the request: ${request.slice(0, 200)}` } };
			if (/\btext\b/i.test(request)) return { tool: tool('Send Text to Lead'), args: { leadId, content: 'Hi, this is the Demo Realty team. Reply STOP to opt out.' } };
			return { text: 'Here is what Lofty holds about this lead.' };
		default:
			return { text: 'Done.' };
	}
}
