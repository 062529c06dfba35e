/** The two databases the store runs on. */
export type StoreDialect = 'sqlite' | 'postgres';
