/** GET /v1.0/getPublishedListings: the team's published listings as an XML feed (needs Accept: application/xml). */
import { invalidParam, missingParam } from '../../core/errors';
import { has } from '../../core/params';
import type { Ctx } from '../../core/router';
import { FEED_TYPES, listingState } from './state';

const xmlEscape = (s: string): string =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function publishedFeed(ctx: Ctx) {
	const accept = String(ctx.headers.accept ?? '').toLowerCase();
	if (!accept.includes('application/xml') && !accept.includes('text/xml')) {
		return { status: 406, body: { code: 'NOT_ACCEPTABLE', message: 'This endpoint produces application/xml: send Accept: application/xml' } };
	}
	if (!has(ctx.query, 'type')) throw missingParam('type');
	const type = ctx.query.get('type')!.trim();
	if (!(FEED_TYPES as readonly string[]).includes(type)) throw invalidParam(`'type' must be one of ${FEED_TYPES.join(', ')}, got '${type}'`);
	const listings = listingState(ctx.store).listings.filter(
		(l) =>
			l.teamId === ctx.user.teamId &&
			l.published &&
			l.status === 'Active' &&
			(type === 'AllOnMarket' || (type === 'LuxVT' && l.price >= 1_000_000) || (type === 'AptCom' && l.purchaseType === 'For Rent')),
	);
	const tag = (name: string, value: string | number) => `<${name}>${xmlEscape(String(value))}</${name}>`;
	const items = listings.map(
		(l) =>
			`<listing>${tag('listingId', l.listingId)}${tag('mlsListingId', l.mlsListingId)}${tag('status', l.status)}${tag('address', l.street)}${tag('city', l.city)}${tag('state', l.state)}${tag('zipCode', l.zipCode)}${tag('price', l.price)}${tag('bedrooms', l.beds)}${tag('bathrooms', l.baths)}${tag('squareFeet', l.sqft)}${tag('propertyType', l.propertyTypeSecondary)}${tag('purchaseType', l.purchaseType)}${tag('agentName', l.agentName)}<photos>${l.pictures.map((p) => tag('photo', p)).join('')}</photos></listing>`,
	);
	const xml = `<?xml version="1.0" encoding="UTF-8"?><listings type="${type}" count="${listings.length}">${items.join('')}</listings>`;
	return { raw: xml, headers: { 'Content-Type': 'application/xml;charset=UTF-8' } };
}
