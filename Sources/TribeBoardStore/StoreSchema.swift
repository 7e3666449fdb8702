import GRDB

/// The store's migrations. A migration that has shipped is never edited: change the schema by
/// registering a new one after the last.
package enum StoreSchema {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-app-models-and-creation-log") { db in
            try createAppModels(db)
            try createToolkitTables(db)
        }
        // When a family's code was last found free in CloudKit; NULL: never checked remotely.
        migrator.registerMigration("v2-remote-code-verification") { db in
            try db.execute(sql: "ALTER TABLE families ADD COLUMN code_verified_remotely_at TEXT")
        }
        // Resync's bookkeeping for records that failed at least once: retries spread across runs,
        // and permanent failures and code conflicts set aside instead of retried forever.
        migrator.registerMigration("v3-sync-state") { db in
            try db.execute(sql: """
                CREATE TABLE sync_state (
                    record_table TEXT NOT NULL CHECK (record_table IN ('families', 'user_profiles', 'memberships')),
                    record_id TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('retrying', 'quarantined', 'conflict')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    last_attempt_at TEXT,
                    next_attempt_at TEXT,
                    conflict_with TEXT,
                    PRIMARY KEY (record_table, record_id)
                ) WITHOUT ROWID;
                """)
        }
        // Audit repairs: every code an audit's --repair --apply changed, and which family kept it.
        migrator.registerMigration("v4-code-repairs") { db in
            try db.execute(sql: """
                CREATE TABLE code_repairs (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    family_id TEXT NOT NULL,
                    old_code TEXT NOT NULL,
                    new_code TEXT NOT NULL,
                    kept_by TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    at TEXT NOT NULL
                );
                CREATE INDEX code_repairs_family ON code_repairs(family_id);
                """)
        }
        // migrate's checkpoint: each source record a run has written (or is writing) to which
        // destination name, and the new code of a re-coded family, so a killed run resumes.
        migrator.registerMigration("v5-migration-checkpoint") { db in
            try db.execute(sql: """
                CREATE TABLE migration_checkpoint (
                    run_key TEXT NOT NULL,
                    source_name TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('family', 'user_profile', 'membership')),
                    destination_name TEXT NOT NULL,
                    new_code TEXT,
                    status TEXT NOT NULL CHECK (status IN ('pending', 'copied', 'deleted')),
                    at TEXT NOT NULL,
                    PRIMARY KEY (run_key, source_name)
                ) WITHOUT ROWID;
                """)
        }
        // The codes this store's families hold a CloudKit claim for (a `FamilyCodeClaim` record,
        // see docs/code-claims.md): a family is claimed when a row names it with its current code;
        // a row whose family has another code now is a claim to release once that family is up.
        migrator.registerMigration("v6-code-claims") { db in
            try db.execute(sql: """
                CREATE TABLE code_claims (
                    code TEXT PRIMARY KEY NOT NULL,
                    family_id TEXT NOT NULL,
                    claimed_at TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX code_claims_family ON code_claims(family_id);
                """)
        }
        // Families support staff removed (`remove`, `merge`): written before anything is deleted,
        // so a killed removal is finished by a rerun and resync never uploads what is leaving;
        // `finished_at` once the family left CloudKit and the store. The creation log stays.
        migrator.registerMigration("v7-family-removals") { db in
            try db.execute(sql: """
                CREATE TABLE family_removals (
                    family_id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    code TEXT NOT NULL,
                    merged_into TEXT,
                    started_at TEXT NOT NULL,
                    finished_at TEXT
                ) WITHOUT ROWID;
                """)
        }
        // Legacy sources `migrate legacy-types --delete-source` kept on purpose (`--keep-source`,
        // and what a kept membership references): why, so the audit does not ask to migrate or
        // delete them again. A column beside the status, not a status: a kept record may be
        // copied or not (an invalid one), and a later run must still know which.
        migrator.registerMigration("v8-migration-kept-sources") { db in
            try db.execute(sql: "ALTER TABLE migration_checkpoint ADD COLUMN kept TEXT")
        }
        // resync reads pending rows a page at a time in id order, leaving out those held back: on
        // (needs_sync) alone SQLite tested every pending row and sorted them for each page, so a
        // run grew with the square of what was pending (50,000 families: 51 s against 28 s). On
        // (needs_sync, id) a page stops at its limit.
        migrator.registerMigration("v9-pending-in-id-order") { db in
            for table in ["families", "user_profiles", "memberships"] {
                try db.execute(sql: """
                    DROP INDEX \(table)_pending;
                    CREATE INDEX \(table)_pending ON \(table)(needs_sync, id) WHERE needs_sync = 1;
                    """)
            }
        }
        return migrator
    }

    /// The app's three models, field names in snake_case, ids as uppercase UUID strings, dates as
    /// ISO 8601 UTC text with milliseconds (readable in `sqlite3`).
    private static func createAppModels(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE families (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                code TEXT NOT NULL,
                created_by_user_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                needs_sync INTEGER NOT NULL DEFAULT 1 CHECK (needs_sync IN (0, 1)),
                last_sync_date TEXT,
                ck_record_id TEXT,
                import_key TEXT,
                source_line INTEGER
            );
            CREATE UNIQUE INDEX families_code ON families(code);
            CREATE UNIQUE INDEX families_import_key ON families(import_key);
            CREATE INDEX families_pending ON families(needs_sync) WHERE needs_sync = 1;

            CREATE TABLE user_profiles (
                id TEXT PRIMARY KEY NOT NULL,
                display_name TEXT NOT NULL,
                apple_user_id_hash TEXT,
                avatar_url TEXT,
                created_at TEXT NOT NULL,
                needs_sync INTEGER NOT NULL DEFAULT 1 CHECK (needs_sync IN (0, 1)),
                last_sync_date TEXT,
                ck_record_id TEXT
            );
            CREATE UNIQUE INDEX user_profiles_apple_user_id_hash
                ON user_profiles(apple_user_id_hash) WHERE apple_user_id_hash IS NOT NULL;
            CREATE INDEX user_profiles_pending ON user_profiles(needs_sync) WHERE needs_sync = 1;

            CREATE TABLE memberships (
                id TEXT PRIMARY KEY NOT NULL,
                family_id TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES user_profiles(id) ON DELETE CASCADE,
                role TEXT NOT NULL DEFAULT 'kid' CHECK (role IN ('parent_admin', 'adult', 'kid', 'visitor')),
                status TEXT NOT NULL CHECK (status IN ('active', 'invited', 'removed')),
                joined_at TEXT NOT NULL,
                last_role_change_at TEXT,
                needs_sync INTEGER NOT NULL DEFAULT 1 CHECK (needs_sync IN (0, 1)),
                last_sync_date TEXT,
                ck_record_id TEXT
            );
            CREATE INDEX memberships_family ON memberships(family_id);
            CREATE INDEX memberships_user ON memberships(user_id);
            CREATE UNIQUE INDEX memberships_one_active_admin
                ON memberships(family_id) WHERE role = 'parent_admin' AND status = 'active';
            CREATE UNIQUE INDEX memberships_one_active_per_user
                ON memberships(user_id, family_id) WHERE status = 'active';
            CREATE INDEX memberships_pending ON memberships(needs_sync) WHERE needs_sync = 1;
            """)
    }

    /// One row per state transition of each creation, failed ones included.
    private static func createToolkitTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE creation_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                family_id TEXT,
                import_key TEXT,
                source_line INTEGER,
                state TEXT NOT NULL CHECK (state IN ('idle', 'validating', 'generatingCode',
                    'creatingLocally', 'syncingToCloudKit', 'completed', 'failed')),
                progress REAL NOT NULL,
                error TEXT,
                at TEXT NOT NULL
            );
            -- By family only: a bulk run appends five rows per family, and every index on this
            -- table is paid for on each of them.
            CREATE INDEX creation_log_family ON creation_log(family_id);

            CREATE TABLE toolkit_meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            """)
    }
}
