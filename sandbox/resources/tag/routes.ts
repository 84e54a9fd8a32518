/**
 * GET /v1.0/teamFeatures/listTag: lead tags visible to the caller (OpenAPI: "both team-wide tags and
 * tags scoped to the caller"), a bare array of UserLeadTag.
 *
 * Where the spec is silent: `visibleType` 0 is a team-wide tag, 1 a tag private to its creator;
 * the catalogue also shows every tag name found on leads the caller can access (tags written
 * through the lead endpoints), so a tag added to a lead is listed afterwards. Times are ISO-8601
 * (`date-time` in the OpenAPI). `leadId` is 0 for catalogue entries (not tied to one lead).
 */
import type { Route } from '../../core/router';
import { SEED_IDS, SEED_TAGS } from '../../core/seed';
import type { Store } from '../../core/store';
import { isoUtc } from '../../core/time';

export const TAG_VISIBLE_TEAM = 0;
export const TAG_VISIBLE_PRIVATE = 1;

export interface TeamTag {
	tagId: bigint;
	teamId: bigint;
	tagName: string;
	creatorUserId: bigint;
	visibleType: number;
	createTime: number;
	updateTime: number;
}

export class TagState {
	tags: TeamTag[] = [];
	nextTagId = 9007199254760001n;
}

export const tagState = (store: Store): TagState => store.ext('tag', () => new TagState());

const T0 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

export function seedTag(store: Store): void {
	const state = tagState(store);
	const teamId = BigInt(SEED_IDS.teamId);
	const owner = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	SEED_TAGS.forEach((tagName, k) => {
		// the first tag has an ID above 2^53; the others are ordinary
		const tagId = k === 0 ? 9007199254740995n : 5100001n + BigInt(k);
		state.tags.push({ tagId, teamId, tagName, creatorUserId: owner, visibleType: TAG_VISIBLE_TEAM, createTime: T0 + k * DAY, updateTime: T0 + k * DAY });
	});
	state.tags.push({ tagId: 5100101n, teamId, tagName: 'My Sphere', creatorUserId: owner, visibleType: TAG_VISIBLE_PRIVATE, createTime: T0 + 40 * DAY, updateTime: T0 + 41 * DAY });
	state.tags.push({ tagId: 5100102n, teamId, tagName: "Oscar's Private", creatorUserId: other, visibleType: TAG_VISIBLE_PRIVATE, createTime: T0 + 42 * DAY, updateTime: T0 + 42 * DAY });
	state.tags.push({ tagId: 5100103n, teamId: 99001n, tagName: 'Other Team Tag', creatorUserId: 1n, visibleType: TAG_VISIBLE_TEAM, createTime: T0, updateTime: T0 });
}

/** Tags the user can see: team-wide ones of its team, its own private ones, and names on its accessible leads. */
export function visibleTags(store: Store, userId: bigint): TeamTag[] {
	const user = store.getUser(userId);
	if (!user) return [];
	const out = tagState(store).tags.filter(
		(t) => t.teamId === user.teamId && (t.visibleType === TAG_VISIBLE_TEAM || t.creatorUserId === user.userId),
	);
	// Lofty matches tag names exactly: "Hot Lead" and "hot lead" are two tags.
	const known = new Set(out.map((t) => t.tagName));
	for (const lead of store.leads.values()) {
		if (lead.deletedAt !== null || !store.canAccess(user.userId, lead)) continue;
		for (const t of lead.tags) {
			if (known.has(t.tagName)) continue;
			known.add(t.tagName);
			out.push({ tagId: t.tagId, teamId: user.teamId, tagName: t.tagName, creatorUserId: t.creatorUserId, visibleType: TAG_VISIBLE_TEAM, createTime: t.createTime, updateTime: t.createTime });
		}
	}
	return out;
}

export const tagRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/teamFeatures/listTag',
		handler: ({ store, user }) => ({
			body: visibleTags(store, user.userId).map((t) => ({
				leadId: 0,
				tagId: t.tagId,
				createTime: isoUtc(t.createTime),
				updateTime: isoUtc(t.updateTime),
				tagName: t.tagName,
				creatorUserId: t.creatorUserId,
				visibleType: t.visibleType,
			})),
		}),
	},
];
