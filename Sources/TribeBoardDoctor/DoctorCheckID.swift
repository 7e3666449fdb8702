/// Every check the doctor can report, by its stable id (the `id` of each finding in `--json`,
/// which scripts and `--fail-on` users match on). One catalogue: docs/doctor.md lists the same
/// ids, and a test keeps the two equal, as docs/errors.md and the error kinds are kept.
package enum DoctorCheckID: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    // Section 1: the Xcode project's container configuration
    case containerProject = "container.project"
    case containerTarget = "container.target"
    case containerToolkit = "container.toolkit"
    case containerFamilyLookup = "container.familyLookup"
    case containerSwiftSources = "container.swiftSources"
    case containerXcconfig = "container.xcconfig"
    case containerBundleID = "container.bundleID"
    case containerEntitlements = "container.entitlements"
    case containerEntitlementContainers = "container.entitlementContainers"
    case containerICloudServices = "container.iCloudServices"
    case containerApsEnvironment = "container.apsEnvironment"
    case containerBackgroundModes = "container.backgroundModes"
    // Section 2: the fallback chain
    case fallbackMode = "fallback.mode"
    // Section 3: the store
    case storeFile = "store.file"
    case storeOpen = "store.open"
    case storePermissions = "store.permissions"
    case storeIntegrity = "store.integrity"
    case storeJournalMode = "store.journalMode"
    case storeMigrations = "store.migrations"
    case storeDiskSpace = "store.diskSpace"
    // Section 4: CloudKit (remote.schema.TYPE.FIELD: one probe query per type and queried field)
    case remoteConfiguration = "remote.configuration"
    case remoteKeyFile = "remote.keyFile"
    case remoteKey = "remote.key"
    case remoteEnvironment = "remote.environment"
    case remoteReachable = "remote.reachable"
    case remoteClock = "remote.clock"
    case remoteSchemaFamilyCode = "remote.schema.Family.code"
    case remoteSchemaFamilyRecordID = "remote.schema.Family.recordID"
    case remoteSchemaUserProfileRecordID = "remote.schema.UserProfile.recordID"
    case remoteSchemaMembershipRecordID = "remote.schema.Membership.recordID"
    case remoteSchemaCKFamilyRecordID = "remote.schema.CKFamily.recordID"
    case remoteSchemaCKUserProfileRecordID = "remote.schema.CKUserProfile.recordID"
    case remoteSchemaCKMembershipRecordID = "remote.schema.CKMembership.recordID"
    case remoteSchemaCKFamilyCode = "remote.schema.CKFamily.code"
    case remoteSchemaFamilyCodeClaim = "remote.schema.FamilyCodeClaim"
    // Section 5: family creations
    case creationsRead = "creations.read"
    case creationsIncomplete = "creations.incomplete"
    case creationsSyncFailures = "creations.syncFailures"
    case creationsPendingSync = "creations.pendingSync"
    case creationsParentAdmin = "creations.parentAdmin"
    case creationsAwaitingAdmin = "creations.awaitingAdmin"
    // `doctor family`
    case familyFound = "family.found"
    case familyCreation = "family.creation"
    case familyAdmin = "family.admin"
    case familySync = "family.sync"
    case familyRemote = "family.remote"
    case familyRecordCreator = "family.recordCreator"
    case familyAppLookup = "family.appLookup"

    package var description: String { rawValue }
}
