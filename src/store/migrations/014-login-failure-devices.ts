import type { Kysely } from 'kysely';

/**
 * A failed password check also names what it came from when that is known: a signed-in
 * browser's known-device cookie (sign-in) or its session (change of password). Sign-in limits
 * then count per device as well as per email and address (admin/sign-in-throttle.ts).
 */
export const loginFailureDevicesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('login_failures').addColumn('device', 'text').execute();
    await db.schema.createIndex('login_failures_device').on('login_failures').columns(['device', 'at']).execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('login_failures_device').execute();
    await db.schema.alterTable('login_failures').dropColumn('device').execute();
  },
};
