/** Which SQL database a store speaks; migrations differ slightly between the two. */
export type StoreDialect = 'sqlite' | 'postgres';
