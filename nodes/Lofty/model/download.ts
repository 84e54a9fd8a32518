/**
 * Operations whose answer is a link to a file (OperationDef.file): the operation's Lofty request gives the link,
 * the file is downloaded (transport/download.ts) and handed back as n8n binary data under the item's
 * "Put Output File in Field" property, with the facts of the file in its json.
 *
 * A link Lofty signs is valid for a limited time. It is asked for right before the download, so a link that has
 * expired (its query says so, or the host refuses it with 403/410 as storage hosts do after the expiry) is asked for
 * once more and the download tried with the fresh one; only a second refusal fails the item.
 */
import type { IBinaryData, IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { type LinkAnswer, fetchLink, readSome, withoutQuery } from '../transport/download';
import { DEFAULT_READ_RETRIES, backoffMs, transportFault } from '../transport/request';
import type { FileDef, OperationContext } from './types';

/** The binary data of a record, kept beside it so that every caller of executeOperation keeps json-only records. */
export const binaryOf = new WeakMap<IDataObject, IBinaryKeyData>();

/** Local parameters every file operation has: where the file goes, and an optional name for it. */
export const BINARY_PROPERTY = 'binaryPropertyName';
export const FILE_NAME = 'fileName';

const AUDIO_TYPES: Record<string, string> = {
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	m4a: 'audio/mp4',
	mp4: 'audio/mp4',
	aac: 'audio/aac',
	ogg: 'audio/ogg',
	oga: 'audio/ogg',
	opus: 'audio/opus',
	webm: 'audio/webm',
	flac: 'audio/flac',
	amr: 'audio/amr',
};
const EXTENSIONS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/aac': 'aac', 'audio/ogg': 'ogg', 'audio/opus': 'opus', 'audio/webm': 'webm', 'audio/flac': 'flac', 'audio/amr': 'amr' };
/** Types a storage host uses when it does not know better: the file name then tells the type. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download', 'application/download']);

const extensionOf = (name: string): string => (/\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1] ?? '').toLowerCase();

/** A file name without folders or characters file systems refuse; '' when nothing is left. */
export function safeFileName(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? '';
	const clean = [...base].map((c) => (c.charCodeAt(0) < 32 || '<>:"|?*'.includes(c) ? '_' : c)).join('');
	return clean.replace(/^\.+/, '').trim().slice(0, 200);
}

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` wins over `filename`). */
export function dispositionName(header: string | undefined): string | undefined {
	if (!header) return undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
	if (extended) {
		try {
			return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
		} catch {
			// fall through to the plain form
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
	return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

/** The last segment of the link's path, when it looks like a file name. */
export function linkName(url: string): string | undefined {
	try {
		const last = new URL(url).pathname.split('/').pop() ?? '';
		const name = decodeURIComponent(last);
		return extensionOf(name) ? name : undefined;
	} catch {
		return undefined;
	}
}

/** When a signed link stops working, if it says (`expires`, `Expires`: epoch ms or s; S3's X-Amz-Date + X-Amz-Expires). */
export function linkExpiry(url: string): Date | undefined {
	let query: URLSearchParams;
	try {
		query = new URL(url).searchParams;
	} catch {
		return undefined;
	}
	const raw = query.get('expires') ?? query.get('Expires');
	if (raw !== null && /^\d+$/.test(raw)) {
		const n = Number(raw);
		return new Date(n < 1e12 ? n * 1000 : n);
	}
	const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get('X-Amz-Date') ?? '');
	const amzExpires = Number(query.get('X-Amz-Expires'));
	if (amzDate && Number.isFinite(amzExpires)) {
		const [, y, mo, d, h, mi, s] = amzDate;
		return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) + amzExpires * 1000);
	}
	return undefined;
}

export interface FileFacts {
	fileName: string;
	mimeType: string;
}

/**
 * Name and type of the file: the user's File Name, else the answer's Content-Disposition, else the link's path, else
 * `fallback`; the type from Content-Type when it is specific, else from the name's extension. `undefined` type: the
 * answer is not of the expected kind (an HTML error page).
 */
export function fileFacts(file: FileDef, answerHeaders: Record<string, string>, url: string, chosen: string, fallback: string): { fileName: string; mimeType?: string; declared: string } {
	const declared = (answerHeaders['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const named = safeFileName(chosen) || safeFileName(dispositionName(answerHeaders['content-disposition']) ?? '') || safeFileName(linkName(url) ?? '') || fallback;
	let mimeType: string | undefined;
	if (declared.startsWith(file.kind)) mimeType = declared;
	else if (GENERIC_TYPES.has(declared)) mimeType = AUDIO_TYPES[extensionOf(named)] ?? AUDIO_TYPES[extensionOf(fallback)];
	const extension = mimeType ? EXTENSIONS[mimeType] : undefined;
	// A name the user gave without an extension gets the file's own.
	const fileName = extensionOf(named) || !extension ? named : `${named}.${extension}`;
	return { fileName, mimeType, declared };
}

function storageCode(page: string): string | undefined {
	return /<Code>([^<]{1,64})<\/Code>/.exec(page)?.[1];
}

async function refusal(ctx: IExecuteFunctions, itemIndex: number, answer: LinkAnswer, url: string, subject: string): Promise<NodeOperationError> {
	const page = await readSome(answer.body);
	const code = storageCode(page);
	const status = `HTTP ${answer.status}${code ? ` ${code}` : ''}`;
	if (answer.status === 403 || answer.status === 410) {
		const expiry = linkExpiry(url);
		return new NodeOperationError(ctx.getNode(), 'The recording link expired; run again to get a fresh one', {
			itemIndex,
			description: `The file host refused the link to ${subject} (${status})${expiry ? `; it was valid until ${expiry.toISOString()}` : ''}. A fresh link from Lofty was refused too, so the clock of this n8n or the file host may be off, or the link was cut short.`,
		});
	}
	if (answer.status === 404) {
		return new NodeOperationError(ctx.getNode(), `The file of ${subject} was not found at its link (${status})`, {
			itemIndex,
			description: `Lofty gave a link to ${withoutQuery(url)}, but the file host has no file there. The recording may have been deleted; try Get Recording URL to see the link.`,
		});
	}
	return new NodeOperationError(ctx.getNode(), `The file host answered ${status} for ${subject}`, { itemIndex, description: `Link: ${withoutQuery(url)} (its signature not shown).` });
}

/**
 * Downloads the file at `url` and stores it as binary data. The body is handed to n8n as it arrives; a connection cut
 * (or stalled) mid-body makes n8n's store fail before it returns anything, so nothing is kept of it: the download is
 * then made again from the start, like a read that got a 5xx (Request Options > Read Retries, growing pauses).
 * 'refused': the host refused the link (403/410) and `mayRefresh` allows one fresh link.
 */
async function fetchAndStore(
	op: OperationContext,
	file: FileDef,
	url: string,
	subject: string,
	settings: { timeout?: number; readRetries?: number },
	mayRefresh: boolean,
): Promise<'refused' | { answer: LinkAnswer; facts: ReturnType<typeof fileFacts>; binary: IBinaryData }> {
	const { ctx, itemIndex, values } = op;
	const retries = Math.max(0, settings.readRetries ?? DEFAULT_READ_RETRIES);
	for (let cut = 0; ; cut++) {
		// fetchLink has its own retries for answers that do not come or are 5xx; a cut body starts it over.
		const answer = await fetchLink(ctx, url, settings, itemIndex);
		if ((answer.status === 403 || answer.status === 410) && mayRefresh) {
			answer.body.destroy();
			ctx.logger?.debug(`Lofty: the link to ${subject} was refused (HTTP ${answer.status}); asking Lofty for a fresh one`);
			return 'refused';
		}
		if (answer.status < 200 || answer.status >= 300) throw await refusal(ctx, itemIndex, answer, url, subject);
		const facts = fileFacts(file, answer.headers, url, String(values[FILE_NAME] ?? ''), file.fallbackName(values));
		if (!facts.mimeType) {
			const page = await readSome(answer.body, 512);
			throw new NodeOperationError(ctx.getNode(), `The link to ${subject} answered ${facts.declared || 'a file without a type'}, not ${file.kind === 'audio/' ? 'an audio file' : file.kind}`, {
				itemIndex,
				description: `The file host sent ${page.length >= 512 ? 'a page' : `${page.length} bytes`} of ${facts.declared || 'unknown type'} (an error page, or a login page of a proxy) instead of the file. Try again later; if it stays so, check the link with Get Recording URL.`,
			});
		}
		try {
			// The stream itself: n8n stores it as it arrives (prepareBinaryData takes a Readable in 1.x and 2.x).
			const binary = await ctx.helpers.prepareBinaryData(answer.body as unknown as Buffer, facts.fileName, facts.mimeType);
			return { answer, facts, binary };
		} catch (error) {
			answer.body.destroy();
			const fault = transportFault(error);
			const reason = (error instanceof Error ? error.message : String(error)).split(url).join(withoutQuery(url));
			if ((fault === 'dropped' || fault === 'timeout') && cut < retries) {
				ctx.logger?.debug(`Lofty: the download of ${subject} was cut off (${reason}); downloading it again`);
				await sleep(backoffMs(cut));
				continue;
			}
			throw new NodeOperationError(ctx.getNode(), `The download of ${subject} was cut off`, {
				itemIndex,
				description: `${reason}${fault === 'dropped' || fault === 'timeout' ? ` (tried ${cut + 1} times)` : ''}. Nothing was stored and nothing was changed; run again later.`,
			});
		}
	}
}

/** Runs a file operation for one item: `ask` is the operation's Lofty request (the link), asked again for a fresh link. */
export async function downloadFile(
	op: OperationContext,
	file: FileDef,
	ask: () => Promise<unknown>,
	settings: { timeout?: number; readRetries?: number },
): Promise<IDataObject[]> {
	const { ctx, itemIndex, values } = op;
	const subject = file.subject(values);
	for (let attempt = 1; ; attempt++) {
		const url = file.link(await ask());
		if (!url) throw new NodeOperationError(ctx.getNode(), file.missing(values), { itemIndex, description: file.missingWhy });
		// A link that says it has expired is not tried; the fresh one is, whatever it says (this n8n's clock may be off).
		if (attempt === 1 && (linkExpiry(url)?.getTime() ?? Infinity) < Date.now()) {
			ctx.logger?.debug(`Lofty: the link to ${subject} has already expired; asking Lofty for a fresh one`);
			continue;
		}
		const stored = await fetchAndStore(op, file, url, subject, settings, attempt === 1);
		if (stored === 'refused') continue;
		const { answer, facts, binary } = stored;
		const length = Number(answer.headers['content-length']);
		// n8n 2.x counts the bytes it stored; 1.x only a rounded text ("16 kB"): then the answer's length, or the data kept in memory.
		const counted = (binary as { bytes?: unknown }).bytes;
		const inMemory = binary.id === undefined && binary.data ? Buffer.byteLength(binary.data, 'base64') : undefined;
		const bytes = typeof counted === 'number' ? counted : (inMemory ?? (Number.isFinite(length) ? length : undefined));
		const expiry = linkExpiry(url);
		const json: IDataObject = {
			...file.json(values),
			fileName: binary.fileName ?? facts.fileName,
			mimeType: binary.mimeType,
			...(bytes !== undefined ? { fileSize: bytes } : {}),
			...(expiry ? { linkExpiresAt: expiry.toISOString() } : {}),
		};
		binaryOf.set(json, { [String(values[BINARY_PROPERTY] || 'data')]: binary });
		return [json];
	}
}
