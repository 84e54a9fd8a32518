import type { ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

export type ListSearchMethod = (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>;
export type LoadOptionsMethod = (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>;

/** The searches and dropdowns one resource contributes to the node. */
export interface MethodSet {
	listSearch: Record<string, ListSearchMethod>;
	loadOptions: Record<string, LoadOptionsMethod>;
}
