import type { IDataObject } from 'n8n-workflow';

/**
 * Guards of Return All: whatever the server does, a list read page after page never emits a record twice,
 * never asks for the same page again (no spin), and never ends silently short of the total it was promised.
 * A page that repeats, a cursor or keyset id that does not advance, or a list that ends early stops the read
 * with a PagingError naming what happened; a page that only overlaps the previous one (a record added at the
 * top while paging, or an inclusive keyset that starts at the last record) is read on without its repeats.
 * The sequential loops of pagination.ts use them; they are exported for any other reader of pages.
 */

/** Why a Return All stopped: what Lofty did, and (in `description`) what it means for the user. */
export class PagingError extends Error {
	readonly description: string;
	constructor(message: string, description = DESCRIPTION) {
		super(message);
		this.name = 'PagingError';
		this.description = description;
	}
}

const DESCRIPTION =
	'Nothing was returned for this item, so that no record is returned twice and no record is silently missing. Lofty did not page this list the way it documents it; try again, and if it persists, report it to the maintainers of the node with this message.';

/** Empty pages in a row that a cursor may skip over before the read stops (an empty last page is normal). */
export const MAX_EMPTY_PAGES = 5;

/** One record's identity: its id field when it has one, else its whole content. */
export function recordKey(record: IDataObject, idField?: string): string {
	const id = idField === undefined ? undefined : record?.[idField];
	if (id !== undefined && id !== null && id !== '') return `id:${String(id)}`;
	return `json:${JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`;
}

export class PageGuard {
	private readonly seen = new Set<string>();
	private readonly cursors = new Set<string>();
	private emptyInRow = 0;
	/** Records emitted so far. */
	count = 0;

	/** `idField`: the record field that identifies a record (else the whole record does). */
	constructor(private readonly idField?: string) {}

	/**
	 * The records of a page that were not emitted before, in order. A page with records of which none is
	 * new means Lofty answered with a page already read: the read stops (unless `boundary` allows that one
	 * repeat: an inclusive keyset's page that holds only the record it started from is the end of the list).
	 */
	fresh(items: IDataObject[], boundary = false): IDataObject[] {
		const out: IDataObject[] = [];
		for (const record of items) {
			const key = recordKey(record, this.idField);
			if (this.seen.has(key)) continue;
			this.seen.add(key);
			out.push(record);
		}
		if (items.length > 0 && out.length === 0 && !(boundary && items.length === 1)) {
			throw new PagingError(`Lofty answered the next page with records it had already sent (after ${this.count} records): the list does not advance`);
		}
		this.count += out.length;
		return out;
	}

	/** Call with each cursor (scroll id, page key, keyset id) before it is sent: one sent before means a loop. */
	advance(cursor: string, name = 'cursor'): void {
		if (this.cursors.has(cursor)) {
			throw new PagingError(`Lofty sent back a ${name} it had sent before (after ${this.count} records): the list does not advance`);
		}
		this.cursors.add(cursor);
	}

	/** Call with each page's record count where a cursor says more follows: too many empty pages in a row stop the read. */
	empty(items: number): void {
		this.emptyInRow = items === 0 ? this.emptyInRow + 1 : 0;
		if (this.emptyInRow >= MAX_EMPTY_PAGES) {
			throw new PagingError(`Lofty sent ${MAX_EMPTY_PAGES} empty pages in a row while saying more follow (after ${this.count} records)`);
		}
	}

	/**
	 * The list ended with `read` records (an empty page, a short one, or one the server served short): an error
	 * when the total that page announced says more, or when the page still said more follow (`more`).
	 */
	ended(read: number, total?: number, more = false): void {
		if (total !== undefined && read < total) {
			throw new PagingError(`The list ended after ${read} records although Lofty announced ${total}`);
		}
		if (more) throw new PagingError(`Lofty sent an empty page after ${read} records while saying more follow`);
	}

	/** A page shorter than asked while more follow, where reading on by page number would skip records. */
	short(page: number, got: number, asked: number): never {
		throw new PagingError(
			`Lofty sent ${got} of ${asked} records on page ${page + 1} while saying more follow (after ${this.count} records): reading on by page number would skip records`,
		);
	}
}
