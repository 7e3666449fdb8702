










    private static func initializeCloudKitZone(containerId: String) {
        Task {
            do {
                let container = CKContainer(identifier: containerId)
                let database = container.privateCloudDatabase
                
                // Create the default zone used by SwiftData/CoreData















































            }

            let desc = NSPersistentStoreDescription(url: schemaInitURL)
            desc.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(
                containerIdentifier: containerId
            )
            desc.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)

            let cdContainer = NSPersistentCloudKitContainer(name: "SchemaInit", managedObjectModel: mom)
            cdContainer.persistentStoreDescriptions = [desc]

            cdContainer.loadPersistentStores { _, error in























































                let cloud = ModelConfiguration(
                    schema: schema,
                    url: cloudStoreURL,
                    cloudKitDatabase: .private(iCloudContainerId)
                )
                let container = try ModelContainer(for: schema, configurations: [cloud])
                logger.info("✅ CloudKit container created successfully")
