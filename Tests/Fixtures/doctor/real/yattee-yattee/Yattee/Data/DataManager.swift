









/// Manages all local data persistence using SwiftData with CloudKit sync.





    let modelContainer: ModelContainer





    /// Weak reference to CloudKit sync engine.
    weak var cloudKitSync: CloudKitSyncEngine?

    /// Whether CloudKit sync is currently enabled for this instance.
    private(set) var isCloudKitEnabled: Bool = false


    /// Updated when bookmarks are added/removed locally or via CloudKit sync.

















    init(inMemory: Bool = false, iCloudSyncEnabled _: Bool = false) throws {
        let configuration: ModelConfiguration

        // IMPORTANT: We intentionally do NOT use SwiftData's built-in CloudKit sync.
        // SwiftData CloudKit sync uses internal UUIDs which causes duplicates when


        // Instead, we use CKSyncEngine directly via CloudKitSyncEngine for iCloud sync.



        // 3. Avoids the duplicate data problem inherent in SwiftData CloudKit sync

            configuration = ModelConfiguration(


                cloudKitDatabase: .none  // Explicitly disable SwiftData CloudKit sync


            configuration = ModelConfiguration(


                cloudKitDatabase: .none  // Explicitly disable SwiftData CloudKit sync



        self.modelContainer = try ModelContainer(



        self.modelContext = modelContainer.mainContext

        self.isCloudKitEnabled = false

        LoggingService.shared.logCloudKit("SwiftData initialized with local storage (CloudKit sync via CKSyncEngine)")




        // Listen for bookmark changes from CloudKit sync to refresh cache













    /// Called at init and when bookmarks change via CloudKit sync.







            LoggingService.shared.logCloudKitError("Failed to refresh bookmark cache", error: error)















            LoggingService.shared.logCloudKitError("Failed to save data", error: error)






















            LoggingService.shared.logCloudKitError("Failed to update subscriber count for \(channelID)", error: error)



