import { searchMembers } from './member';
import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Agent resource: agents are team members, by user ID. */
export const agentMethods: MethodSet = { listSearch: { searchAgents: searchMembers }, loadOptions: {} };
